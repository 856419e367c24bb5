package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// answerFlags collects call's --answer KEY=VALUE flags.
type answerFlags map[string]string

func (a answerFlags) String() string { return "" }

func (a answerFlags) Set(s string) error {
	key, value, ok := strings.Cut(s, "=")
	if !ok || key == "" {
		return fmt.Errorf("want KEY=VALUE, like name='{\"name\":\"Ada\"}' or existing=append")
	}
	if _, dup := a[key]; dup {
		return fmt.Errorf("question %s is answered twice", key)
	}
	a[key] = value
	return nil
}

// callAsker is call's host.Asker: a question answered by --answer takes
// that answer; any other is asked on the terminal. Without one, the
// handler reads that the question could not be asked (sdk.ErrCannotAsk),
// and the operator reads how to answer it by flag. Roots are the
// workspace.
type callAsker struct {
	e       *env
	answers answerFlags
	used    map[string]bool
	in      *bufio.Reader
}

func (e *env) asker(answers answerFlags) *callAsker {
	return &callAsker{e: e, answers: answers, used: map[string]bool{}}
}

// unused tells the operator about answers no question took.
func (a *callAsker) unused() {
	var keys []string
	for k := range a.answers {
		if !a.used[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(a.e.stderr, "modhost: --answer %s answered no question the tool asked\n", k)
	}
}

// CanAsk implements host.Asker.
func (a *callAsker) CanAsk(kind host.QuestionKind) bool {
	return kind != host.AskRoots || a.e.workspace != ""
}

// Ask implements host.Asker.
func (a *callAsker) Ask(ctx context.Context, q *host.Question) (json.RawMessage, error) {
	if q.Kind == host.AskRoots {
		u := url.URL{Scheme: "file", Path: a.e.workspace}
		return json.Marshal(map[string]any{"roots": []map[string]string{{"uri": u.String(), "name": "workspace"}}})
	}
	if v, ok := a.answers[q.Key]; ok {
		a.used[q.Key] = true
		if q.Refusal != "" {
			return nil, fmt.Errorf("--answer %s: %s", q.Key, q.Refusal)
		}
		fmt.Fprintf(a.e.stderr, "modhost: %s\nmodhost: answered by --answer %s\n", what(q), q.Key)
		return flagAnswer(q, v)
	}
	if !isTerminal(a.e.stdin) || !isTerminal(a.e.stderr) {
		fmt.Fprintf(a.e.stderr, "modhost: %s\nmodhost: no terminal to ask on, so the tool reads that question %s could not be asked; answer it with --answer %s=%s\n", what(q), q.Key, q.Key, example(q))
		return nil, fmt.Errorf("%w: no terminal to ask on", sdk.ErrCannotAsk)
	}
	if a.in == nil {
		a.in = bufio.NewReader(a.e.stdin)
	}
	return a.prompt(ctx, q)
}

// what is a question as the operator reads it.
func what(q *host.Question) string {
	switch q.Kind {
	case host.AskSample:
		return fmt.Sprintf("the tool asks the model (question %s)", q.Key)
	case host.AskURL:
		return q.Message + " " + q.URL
	}
	return q.Message
}

// formFields are a form's fields in order, with their schemas.
type formField struct {
	name     string
	schema   map[string]any
	required bool
}

func formFields(schema json.RawMessage) []formField {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	json.Unmarshal(schema, &s)
	var out []formField
	dec := json.NewDecoder(strings.NewReader(string(s.Properties)))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		name, _ := t.(string)
		var fs map[string]any
		if dec.Decode(&fs) != nil {
			return out
		}
		out = append(out, formField{name: name, schema: fs, required: contains(s.Required, name)})
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// example is how to answer q by flag.
func example(q *host.Question) string {
	switch q.Kind {
	case host.AskURL:
		return "accept|decline|cancel"
	case host.AskSample:
		return "'the model's reply'"
	}
	fs := formFields(q.Schema)
	if len(fs) == 0 {
		return "accept|decline|cancel"
	}
	if len(fs) == 1 {
		if opts := options(fs[0].schema); len(opts) > 0 {
			return strings.Join(opts, "|")
		}
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = fmt.Sprintf("%q:…", f.name)
	}
	return "'{" + strings.Join(parts, ",") + "}'|decline|cancel"
}

// options are a choice field's values.
func options(s map[string]any) []string {
	var out []string
	if e, ok := s["enum"].([]any); ok {
		for _, v := range e {
			out = append(out, fmt.Sprint(v))
		}
	}
	if o, ok := s["oneOf"].([]any); ok {
		for _, v := range o {
			if m, ok := v.(map[string]any); ok {
				out = append(out, fmt.Sprint(m["const"]))
			}
		}
	}
	return out
}

// flagAnswer is the answer v, given by --answer, to q: for a form, a JSON
// object of its values, or a lone field's value, or accept, decline or
// cancel; for a URL, accept, decline or cancel; for a sample, the model's
// reply.
func flagAnswer(q *host.Question, v string) (json.RawMessage, error) {
	switch q.Kind {
	case host.AskSample:
		return json.Marshal(map[string]any{"role": "assistant", "content": map[string]string{"type": "text", "text": v}, "model": "modhost --answer"})
	case host.AskURL:
		return host.FormAnswer(v, nil), nil
	}
	switch v {
	case "accept", "decline", "cancel":
		return host.FormAnswer(v, nil), nil
	}
	if strings.HasPrefix(strings.TrimSpace(v), "{") {
		var values map[string]any
		if err := json.Unmarshal([]byte(v), &values); err != nil {
			return nil, fmt.Errorf("--answer %s: %v", q.Key, err)
		}
		return host.FormAnswer("accept", values), nil
	}
	fs := formFields(q.Schema)
	if len(fs) != 1 {
		return nil, fmt.Errorf("--answer %s: the form has %d fields: give them as a JSON object, like %s", q.Key, len(fs), example(q))
	}
	val, err := fieldValue(fs[0], v)
	if err != nil {
		return nil, fmt.Errorf("--answer %s: %v", q.Key, err)
	}
	return host.FormAnswer("accept", map[string]any{fs[0].name: val}), nil
}

// fieldValue reads a field's value as typed.
func fieldValue(f formField, s string) (any, error) {
	switch f.schema["type"] {
	case "number", "integer":
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number", f.name, s)
		}
		return n, nil
	case "boolean":
		switch strings.ToLower(s) {
		case "y", "yes", "true":
			return true, nil
		case "n", "no", "false":
			return false, nil
		}
		return nil, fmt.Errorf("%s: answer yes or no", f.name)
	case "array":
		var out []any
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out, nil
	}
	return s, nil
}

// prompt asks q on the terminal.
func (a *callAsker) prompt(ctx context.Context, q *host.Question) (json.RawMessage, error) {
	w := a.e.stderr
	if q.Refusal != "" {
		fmt.Fprintf(w, "Your last answer was refused: %s\n", q.Refusal)
	}
	switch q.Kind {
	case host.AskSample:
		fmt.Fprintf(w, "The tool asks the model; answer as the model would.\n%s\n> ", q.Params)
		line, err := a.line(ctx)
		if err != nil {
			return nil, err
		}
		return flagAnswer(q, line)
	case host.AskURL:
		fmt.Fprintf(w, "%s\nOpen %s, then answer: done? [y/N] ", q.Message, q.URL)
		return a.confirm(ctx)
	}
	fs := formFields(q.Schema)
	if len(fs) == 0 {
		fmt.Fprintf(w, "%s\n[y/N] ", q.Message)
		return a.confirm(ctx)
	}
	fmt.Fprintf(w, "%s\n(an empty line keeps the default; !decline declines, !cancel dismisses)\n", q.Message)
	values := map[string]any{}
	for _, f := range fs {
		label := f.name
		if t, ok := f.schema["title"].(string); ok && t != "" {
			label = t
		}
		if opts := options(f.schema); len(opts) > 0 {
			label += " [" + strings.Join(opts, "|") + "]"
		}
		if d, ok := f.schema["default"]; ok {
			label += fmt.Sprintf(" (default %v)", d)
		}
		fmt.Fprintf(w, "%s: ", label)
		line, err := a.line(ctx)
		if err != nil {
			return nil, err
		}
		switch line {
		case "!decline":
			return host.FormAnswer("decline", nil), nil
		case "!cancel":
			return host.FormAnswer("cancel", nil), nil
		case "":
			if d, ok := f.schema["default"]; ok {
				values[f.name] = d
			}
			continue
		}
		v, err := fieldValue(f, line)
		if err != nil {
			fmt.Fprintln(w, err)
			continue // the host judges the answer and asks again
		}
		values[f.name] = v
	}
	return host.FormAnswer("accept", values), nil
}

// confirm reads a y/N line: accept on yes, decline otherwise.
func (a *callAsker) confirm(ctx context.Context) (json.RawMessage, error) {
	line, err := a.line(ctx)
	if err != nil {
		return nil, err
	}
	if yes(line) {
		return host.FormAnswer("accept", nil), nil
	}
	return host.FormAnswer("decline", nil), nil
}

func yes(line string) bool {
	switch strings.ToLower(line) {
	case "y", "yes":
		return true
	}
	return false
}

// line reads one line from the terminal, or fails when ctx ends.
func (a *callAsker) line(ctx context.Context) (string, error) {
	got := make(chan string, 1)
	go func() {
		// Left reading when the call is cancelled: modhost exits then.
		s, err := a.in.ReadString('\n')
		if err == io.EOF && s == "" {
			s = "!cancel"
		}
		got <- strings.TrimSpace(s)
	}()
	select {
	case s := <-got:
		return s, nil
	case <-ctx.Done():
		fmt.Fprintln(a.e.stderr)
		return "", ctx.Err()
	}
}

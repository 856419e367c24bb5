package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/manifest"
)

// compileSchema compiles a tool's input schema, once per tool.
func compileSchema(modID string, t manifest.Tool) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.AssertContent = true
	url := "modkit:///" + modID + "/" + t.Name + "/input.json"
	if err := c.AddResource(url, bytes.NewReader(t.InputSchema)); err != nil {
		return nil, fmt.Errorf("mod %s: tool %s: input schema: %v", modID, t.Name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("mod %s: tool %s: input schema: %v", modID, t.Name, err)
	}
	return s, nil
}

// checkInput parses input and checks it against the tool's schema. It
// returns every problem as "/json/path: what is wrong".
func checkInput(s *jsonschema.Schema, input []byte) []string {
	if len(bytes.TrimSpace(input)) == 0 {
		input = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []string{"/: malformed JSON: " + jsonErrorText(err)}
	}
	if _, err := dec.Token(); err != io.EOF {
		return []string{"/: malformed JSON: more than one value"}
	}
	if problems := longNumbers(v); len(problems) > 0 {
		return problems
	}
	err := s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{"/: " + err.Error()}
	}
	var problems []string
	collectProblems(ve, &problems)
	if len(problems) == 0 {
		problems = []string{"/: " + ve.Message}
	}
	sort.SliceStable(problems, func(i, j int) bool { return pathOf(problems[i]) < pathOf(problems[j]) })
	return limits.Problems(dedupe(problems), 0)
}

func jsonErrorText(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s (at byte %d)", se.Error(), se.Offset)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of input"
	}
	return err.Error()
}

func pathOf(problem string) string {
	p, _, _ := strings.Cut(problem, ": ")
	return p
}

func dedupe(ps []string) []string {
	out := ps[:0]
	seen := map[string]bool{}
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func collectProblems(ve *jsonschema.ValidationError, out *[]string) {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			collectProblems(c, out)
		}
		return
	}
	loc := ve.InstanceLocation
	kw := ve.KeywordLocation
	if i := strings.LastIndexByte(kw, '/'); i >= 0 {
		kw = kw[i+1:]
	}
	*out = append(*out, describe(loc, kw, ve.Message)...)
}

var (
	quotedName = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'`)
	numbers    = regexp.MustCompile(`-?[0-9][0-9.eE+-]*`)
)

func pointer(loc string) string {
	if loc == "" {
		return "/"
	}
	return loc
}

func child(loc, name string) string {
	name = strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
	return loc + "/" + name
}

// describe rewrites a jsonschema message into words a model acts on.
func describe(loc, keyword, msg string) []string {
	nums := numbers.FindAllString(msg, -1)
	two := func(format string) []string {
		if len(nums) >= 2 {
			return []string{pointer(loc) + ": " + fmt.Sprintf(format, nums[0], nums[1])}
		}
		return []string{pointer(loc) + ": " + msg}
	}
	switch keyword {
	case "required":
		var out []string
		for _, m := range quotedName.FindAllStringSubmatch(msg, -1) {
			out = append(out, child(loc, m[1])+": is required")
		}
		if len(out) > 0 {
			return out
		}
	case "additionalProperties":
		var out []string
		for _, m := range quotedName.FindAllStringSubmatch(msg, -1) {
			out = append(out, child(loc, m[1])+": unknown field")
		}
		if len(out) > 0 {
			return out
		}
	case "type":
		if after, ok := strings.CutPrefix(msg, "expected "); ok {
			want, got, _ := strings.Cut(after, ", but got ")
			return []string{pointer(loc) + ": must be " + want + ", got " + got}
		}
	case "minimum":
		return two("must be at least %s, got %s")
	case "maximum":
		return two("must be at most %s, got %s")
	case "exclusiveMinimum":
		return two("must be greater than %s, got %s")
	case "exclusiveMaximum":
		return two("must be less than %s, got %s")
	case "minLength":
		return two("must be at least %s characters long, got %s")
	case "maxLength":
		return two("must be at most %s characters long, got %s")
	case "minItems":
		return two("must have at least %s items, got %s")
	case "maxItems":
		return two("must have at most %s items, got %s")
	}
	return []string{pointer(loc) + ": " + msg}
}

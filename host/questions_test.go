package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
)

const askingDir = "testdata/mods/asking"

// scripted is an Asker that answers from a script, by question key, and
// records what it was asked.
type scripted struct {
	kinds   []host.QuestionKind
	answers map[string][]string // key -> answers, in order
	asked   []host.Question
	err     error
}

func (s *scripted) CanAsk(k host.QuestionKind) bool {
	for _, c := range s.kinds {
		if c == k {
			return true
		}
	}
	return false
}

func (s *scripted) Ask(_ context.Context, q *host.Question) (json.RawMessage, error) {
	s.asked = append(s.asked, *q)
	if s.err != nil {
		return nil, s.err
	}
	list := s.answers[q.Key]
	if len(list) == 0 {
		return nil, errors.New("no scripted answer for " + q.Key)
	}
	s.answers[q.Key] = list[1:]
	return json.RawMessage(list[0]), nil
}

var everyKind = []host.QuestionKind{host.AskForm, host.AskURL, host.AskSample, host.AskRoots}

func askCall(t *testing.T, h *testHost, tool, input string, a host.Asker, given []host.Answered) *host.CallResult {
	t.Helper()
	sess := session(t)
	if h.ws != "" {
		sess = inWorkspace(h.ws)
	}
	res, err := h.Call(context.Background(), &host.CallRequest{Tool: tool, Input: json.RawMessage(input), Session: sess, Asker: a, Answers: given})
	if err != nil {
		t.Fatalf("Call(%s): %v", tool, err)
	}
	return res
}

func TestQuestions(t *testing.T) {
	t.Parallel()
	h := load(t, nil, askingDir)
	tests := []struct {
		name, tool string
		asker      *scripted // nil: no asker
		wantStatus host.Status
		wantText   string
		wantAsked  []string
	}{
		{name: "accepted", tool: "asking_greet",
			asker:      &scripted{kinds: everyKind, answers: map[string][]string{"name": {`{"action":"accept","content":{"name":"Ada"}}`}, "color": {`{"action":"accept","content":{"color":"red"}}`}}},
			wantStatus: host.StatusCompleted, wantText: "Hello Ada, red", wantAsked: []string{"name", "color"}},
		{name: "declined", tool: "asking_greet",
			asker:      &scripted{kinds: everyKind, answers: map[string][]string{"name": {`{"action":"decline"}`}}},
			wantStatus: host.StatusCompleted, wantText: "no name: decline", wantAsked: []string{"name"}},
		{name: "dismissed", tool: "asking_greet",
			asker:      &scripted{kinds: everyKind, answers: map[string][]string{"name": {`{"action":"cancel"}`}}},
			wantStatus: host.StatusCompleted, wantText: "no name: cancel", wantAsked: []string{"name"}},
		{name: "refused then fixed", tool: "asking_greet",
			asker: &scripted{kinds: everyKind, answers: map[string][]string{
				"name":  {`{"action":"accept","content":{"name":5}}`, `{"action":"accept","content":{"name":"Ada"}}`},
				"color": {`{"action":"accept","content":{"color":"pink"}}`, `{"action":"accept","content":{"color":"green"}}`}}},
			wantStatus: host.StatusCompleted, wantText: "Hello Ada, green", wantAsked: []string{"name", "name", "color", "color"}},
		{name: "no asker", tool: "asking_greet",
			wantStatus: host.StatusCompleted, wantText: "no name: the question could not be asked: the client cannot ask a person to fill a form"},
		{name: "asker cannot ask forms", tool: "asking_greet", asker: &scripted{kinds: []host.QuestionKind{host.AskSample}},
			wantStatus: host.StatusCompleted, wantText: "no name: the question could not be asked: the client cannot ask a person to fill a form"},
		{name: "asker fails", tool: "asking_greet", asker: &scripted{kinds: everyKind, err: errors.New("no terminal")},
			wantStatus: host.StatusFailed, wantText: "Tool failed: question name of tool asking_greet could not be asked: no terminal", wantAsked: []string{"name"}},
		{name: "model and roots", tool: "asking_model",
			asker: &scripted{kinds: everyKind, answers: map[string][]string{
				"capital": {`{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m"}`},
				"roots":   {`{"roots":[{"uri":"file:///a"},{"uri":"file:///b"}]}`}}},
			wantStatus: host.StatusCompleted, wantText: "Paris | file:///a,file:///b", wantAsked: []string{"capital", "roots"}},
		{name: "url", tool: "asking_url",
			asker:      &scripted{kinds: everyKind, answers: map[string][]string{"signin": {`{"action":"accept"}`}}},
			wantStatus: host.StatusCompleted, wantText: "signin: accept", wantAsked: []string{"signin"}},
		{name: "approval then question", tool: "asking_guarded",
			asker:      &scripted{kinds: everyKind, answers: map[string][]string{host.ApprovalKey: {`{"action":"accept"}`}, "name": {`{"action":"accept","content":{"name":"Ada"}}`}}},
			wantStatus: host.StatusCompleted, wantText: "Hello Ada", wantAsked: []string{host.ApprovalKey, "name"}},
		{name: "approval declined", tool: "asking_guarded",
			asker:      &scripted{kinds: everyKind, answers: map[string][]string{host.ApprovalKey: {`{"action":"decline"}`}}},
			wantStatus: host.StatusDenied, wantText: "The person declined this call, so asking_guarded did not run. They were asked: Greet someone", wantAsked: []string{host.ApprovalKey}},
		{name: "approval dismissed", tool: "asking_guarded",
			asker:      &scripted{kinds: everyKind, answers: map[string][]string{host.ApprovalKey: {`{"action":"cancel"}`}}},
			wantStatus: host.StatusDenied, wantText: "The person dismissed the question without choosing, so asking_guarded did not run; ask again only if they want it. They were asked: Greet someone", wantAsked: []string{host.ApprovalKey}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a host.Asker
			if tt.asker != nil {
				a = tt.asker
			}
			res := askCall(t, h, tt.tool, `{}`, a, nil)
			if res.Status != tt.wantStatus || res.Text != tt.wantText {
				t.Errorf("got %s %q, want %s %q", res.Status, res.Text, tt.wantStatus, tt.wantText)
			}
			var asked []string
			if tt.asker != nil {
				for _, q := range tt.asker.asked {
					asked = append(asked, q.Key)
				}
			}
			if strings.Join(asked, ",") != strings.Join(tt.wantAsked, ",") {
				t.Errorf("asked %q, want %q", asked, tt.wantAsked)
			}
		})
	}
}

// laterAsker answers nothing now: every question goes back to the caller.
type laterAsker struct{}

func (laterAsker) CanAsk(host.QuestionKind) bool { return true }
func (laterAsker) Ask(context.Context, *host.Question) (json.RawMessage, error) {
	return nil, host.ErrAskLater
}

// TestQuestionsAskLater runs a call as a stateless front end does: each
// request ends asking, and the next one carries the answers so far; the
// handler runs again from the start each time, and its side effect
// happens once, after the questions.
func TestQuestionsAskLater(t *testing.T) {
	t.Parallel()
	h := load(t, nil, askingDir)
	dir := t.TempDir()
	h.ws = dir
	runs, marker := filepath.Join(dir, "runs"), filepath.Join(dir, "marker")
	input, _ := json.Marshal(map[string]string{"runs": runs, "marker": marker})
	answers := map[string]string{"name": `{"action":"accept","content":{"name":"Ada"}}`, "color": `{"action":"accept","content":{"color":"blue"}}`}
	var given []host.Answered
	var res *host.CallResult
	for round := 1; round <= 3; round++ {
		res = askCall(t, h, "asking_greet", string(input), laterAsker{}, given)
		if res.Status != host.StatusAsking {
			break
		}
		if len(res.Questions) != 1 {
			t.Fatalf("round %d: got %d questions, want 1", round, len(res.Questions))
		}
		q := res.Questions[0]
		if q.Position != round-1 {
			t.Errorf("round %d: question %s at position %d, want %d", round, q.Key, q.Position, round-1)
		}
		given = append(res.Answered, host.Answered{Question: q, Answer: json.RawMessage(answers[q.Key])})
	}
	if res.Status != host.StatusCompleted || res.Text != "Hello Ada, blue" {
		t.Fatalf("got %s %q, want completed %q", res.Status, res.Text, "Hello Ada, blue")
	}
	b, _ := os.ReadFile(runs)
	if got := strings.Count(string(b), "run"); got != 3 {
		t.Errorf("handler ran %d times, want 3 (once per answer, and the first)", got)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("side effect after the questions: %v", err)
	}

	// An answer that breaks its form is refused: the question is asked
	// again, saying why.
	bad := []host.Answered{{Question: given[0].Question, Answer: json.RawMessage(`{"action":"accept","content":{}}`)}}
	res = askCall(t, h, "asking_greet", `{}`, laterAsker{}, bad)
	if res.Status != host.StatusAsking || len(res.Questions) != 1 || res.Questions[0].Key != "name" {
		t.Fatalf("bad answer: got %s %+v, want asking name again", res.Status, res.Questions)
	}
	if want := `the answer does not fit the form: /content: missing property "name"`; !strings.Contains(res.Questions[0].Refusal, "/content") {
		t.Errorf("refusal %q, want one like %q", res.Questions[0].Refusal, want)
	}
}

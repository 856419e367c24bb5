package callflow

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/sdk"
)

func TestAnswer(t *testing.T) {
	q := func(key string, pos int) modapi.Question {
		return modapi.Question{Kind: modapi.AskForm, Key: key, Position: pos}
	}
	given := []modapi.Answered{{Question: q("a", 0), Answer: json.RawMessage(`1`)}, {Question: q("b", 1), Answer: json.RawMessage(`2`)}}
	answer := func(q modapi.Question) (json.RawMessage, bool, error) {
		switch q.Key {
		case "later":
			return nil, true, nil
		case "fail":
			return nil, false, errors.New("no")
		}
		return json.RawMessage(`"` + q.Key + `"`), false, nil
	}
	keys := func(as []modapi.Answered) []string {
		var out []string
		for _, a := range as {
			out = append(out, a.Question.Key+"="+string(a.Answer))
		}
		return out
	}

	// A question asked anew at position 1 replaces the answers from there.
	next, later, err := Answer("t", 0, slices.Clone(given), []modapi.Question{q("c", 1), q("d", 2)}, answer)
	if err != nil || later != nil {
		t.Fatalf("got %v, %v", later, err)
	}
	if got, want := keys(next), []string{`a=1`, `c="c"`, `d="d"`}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}

	// A deferred question is left for later; the others are answered.
	next, later, err = Answer("t", 0, nil, []modapi.Question{q("later", 0), q("x", 1)}, answer)
	if err != nil || len(later) != 1 || later[0].Key != "later" || len(next) != 1 {
		t.Errorf("got next %q, later %v, err %v", keys(next), later, err)
	}

	// An error ends the answering.
	if _, _, err := Answer("t", 0, nil, []modapi.Question{q("fail", 0)}, answer); err == nil || err.Error() != "no" {
		t.Errorf("got %v, want no", err)
	}

	// A question past the limit fails the call, counting the offset.
	_, _, err = Answer("t", 1, nil, []modapi.Question{q("x", modapi.MaxQuestions-1)}, answer)
	var tm *TooManyError
	if !errors.As(err, &tm) || err.Error() != modapi.TooManyQuestions("t") {
		t.Errorf("got %v, want %q", err, modapi.TooManyQuestions("t"))
	}
}

func TestHookOrder(t *testing.T) {
	names := func(as []sdk.Action) string {
		var out []string
		for _, a := range as {
			out = append(out, a.Name)
		}
		return strings.Join(out, " ")
	}
	for _, tt := range []struct {
		action sdk.Action
		want   string
	}{
		{sdk.Action{Name: sdk.ActionToolCall, Tool: "x"}, "tool.call"},
		{sdk.Action{Name: sdk.ActionCommandRun, Command: "c"}, "command.run command:c"},
		{sdk.Action{Name: "command:c", Command: "c"}, "command.run command:c"},
		{sdk.Action{Name: "custom", Command: "c"}, "custom command.run command:c"},
	} {
		if got := names(HookOrder(tt.action)); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.action, got, tt.want)
		}
	}
	if !HookSees("tool.call", false) || !HookSees("command:c", true) || HookSees("command:c", false) {
		t.Error("HookSees: a command's own hooks run only in its mod; host actions' in every mod")
	}
}

func TestShown(t *testing.T) {
	msg, schema, url := Shown(json.RawMessage(`{"mode":"form","message":"Name?","requestedSchema":{"type":"object"}}`))
	if msg != "Name?" || string(schema) != `{"type":"object"}` || url != "" {
		t.Errorf("form: got %q, %s, %q", msg, schema, url)
	}
	if msg, _, url = Shown(json.RawMessage(`{"mode":"url","message":"Log in","url":"https://example.com"}`)); msg != "Log in" || url != "https://example.com" {
		t.Errorf("url: got %q, %q", msg, url)
	}
	if msg, schema, url = Shown(json.RawMessage(`[1]`)); msg != "" || schema != nil || url != "" {
		t.Errorf("not an object: got %q, %s, %q", msg, schema, url)
	}
}

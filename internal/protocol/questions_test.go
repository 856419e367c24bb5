package protocol

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modkit/modkit/internal/modapi"
)

func TestQuestionsRoundTrip(t *testing.T) {
	t.Parallel()
	qs := []modapi.Question{
		{Kind: modapi.AskForm, Key: "name", Params: json.RawMessage(`{"message":"m"}`), Position: 0},
		{Kind: modapi.AskSample, Key: "q2", Params: json.RawMessage(`{"maxTokens":5}`), Position: 1},
	}
	out := OutcomeFromProto(OutcomeToProto(&modapi.Outcome{Status: modapi.StatusAsking, Questions: qs}))
	if out.Status != modapi.StatusAsking || !reflect.DeepEqual(out.Questions, qs) {
		t.Errorf("asking outcome: got %+v, want the questions back", out)
	}
	answers := []modapi.Answered{{Question: qs[0], Answer: json.RawMessage(`{"action":"accept"}`)}}
	if got := answersFromProto(answersToProto(answers)); !reflect.DeepEqual(got, answers) {
		t.Errorf("answers: got %+v, want %+v", got, answers)
	}
	kinds := []modapi.QuestionKind{modapi.AskForm, modapi.AskRoots}
	if got := kindsFromProto(kindsToProto(kinds)); !reflect.DeepEqual(got, kinds) {
		t.Errorf("kinds: got %v, want %v", got, kinds)
	}
}

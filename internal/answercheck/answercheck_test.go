package answercheck

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/modkit/modkit/internal/modapi"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":1},"n":{"type":"integer"}},"required":["name"]}`)
	tests := []struct {
		kind   modapi.QuestionKind
		answer string
		want   []string
	}{
		{modapi.AskForm, `{"action":"accept","content":{"name":"Ada","n":2}}`, nil},
		{modapi.AskForm, `{"action":"decline"}`, nil},
		{modapi.AskForm, `{"action":"accept"}`, []string{`/content: missing required property "name"`}},
		{modapi.AskForm, `{"action":"accept","content":{"name":"Ada","n":"x"}}`, []string{"/content/n: must be an integer, got a string"}},
		{modapi.AskForm, `{"action":"yes"}`, []string{`/action: must be one of "accept", "decline", "cancel"`}},
		{modapi.AskForm, `12345`, []string{"/: must be an object"}},
		{modapi.AskSample, `{"role":"assistant"}`, []string{"/content: is required"}},
		{modapi.AskRoots, `{"roots":5}`, []string{"/roots: must be an array of roots"}},
		{modapi.AskRoots, `{"roots":[]}`, nil},
	}
	for _, tt := range tests {
		got := Check(tt.kind, "k", schema, json.RawMessage(tt.answer))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s %s: got %q, want %q", tt.kind, tt.answer, got, tt.want)
		}
	}
}

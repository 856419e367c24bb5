package modapi

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestCheckAnswer(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":1},"n":{"type":"integer"}},"required":["name"]}`)
	tests := []struct {
		kind   QuestionKind
		answer string
		want   []string
	}{
		{AskForm, `{"action":"accept","content":{"name":"Ada","n":2}}`, nil},
		{AskForm, `{"action":"decline"}`, nil},
		{AskForm, `{"action":"accept"}`, []string{`/content: missing required property "name"`}},
		{AskForm, `{"action":"accept","content":{"name":"Ada","n":"x"}}`, []string{"/content/n: must be an integer, got a string"}},
		{AskForm, `{"action":"yes"}`, []string{`/action: must be one of "accept", "decline", "cancel"`}},
		{AskForm, `12345`, []string{"/: must be an object"}},
		{AskSample, `{"role":"assistant"}`, []string{"/content: is required"}},
		{AskRoots, `{"roots":5}`, []string{"/roots: must be an array of roots"}},
		{AskRoots, `{"roots":[]}`, nil},
	}
	for _, tt := range tests {
		got := CheckAnswer(tt.kind, "k", schema, json.RawMessage(tt.answer))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s %s: got %q, want %q", tt.kind, tt.answer, got, tt.want)
		}
	}
}

func TestQuestionSame(t *testing.T) {
	a := Question{Kind: AskForm, Key: "k", Params: json.RawMessage(`{"message":"m","mode":"form"}`)}
	b := Question{Kind: AskForm, Key: "k", Params: json.RawMessage(`{ "mode": "form", "message": "m" }`), Position: 3}
	if !a.Same(b) {
		t.Errorf("the same question spelled otherwise: got different, want same")
	}
	for _, c := range []Question{{Kind: AskURL, Key: "k", Params: a.Params}, {Kind: AskForm, Key: "j", Params: a.Params}, {Kind: AskForm, Key: "k", Params: json.RawMessage(`{"message":"n"}`)}} {
		if a.Same(c) {
			t.Errorf("%+v: got same as %+v, want different", c, a)
		}
	}
}

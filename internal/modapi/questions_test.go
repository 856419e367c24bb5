package modapi

import (
	"encoding/json"
	"testing"
)

func TestQuestionSame(t *testing.T) {
	t.Parallel()
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

package main

import (
	"encoding/json"
	"testing"
)

// TestReplyChecks: checkText, run once before timing, decodes a result
// and compares its text with the echo; succeeded, run on every timed
// call, only refuses a tool error or a result without content.
func TestReplyChecks(t *testing.T) {
	t.Parallel()
	want, err := wantReply()
	if err != nil {
		t.Fatal(err)
	}
	text, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	good := `{"content":[{"type":"text","text":` + string(text) + `}]}`
	for _, tc := range []struct {
		res                 string
		checked, succeeding bool
	}{
		{good, true, true},
		{`{"content":[{"type":"text","text":"{}"}]}`, false, true},
		{`{"content":[{"type":"text","text":` + string(text) + `}],"isError":true}`, false, false},
		{`{"content":[]}`, false, true},
		{`{"resultType":"task"}`, false, false},
	} {
		if err := checkText("side", json.RawMessage(tc.res)); (err == nil) != tc.checked {
			t.Errorf("checkText(%s): got %v, want passing %v", tc.res, err, tc.checked)
		}
		if err := succeeded("side", json.RawMessage(tc.res)); (err == nil) != tc.succeeding {
			t.Errorf("succeeded(%s): got %v, want passing %v", tc.res, err, tc.succeeding)
		}
	}
}

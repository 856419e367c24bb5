package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
)

// FuzzCall drives Host.Call with random input while crashy, which hooks
// tool calls, is loaded: nothing crashes, every call ends with one
// outcome, and refused input is refused as invalid input.
func FuzzCall(f *testing.F) {
	for _, s := range []string{
		`{"text":"a"}`, `{"text":"a","times":2}`, `{"text":`, `[1]`, `{"text":5,"zz":1}`,
		`{"text":"a","times":1e10000000}`, `{"text":"a","times":-1e-10000000}`, `{"text":"a","text":"b"}`,
		`{"text":"\ud800","times":5.0}`, strings.Repeat("[", 20000), `{"times":1e309,"x":{"y":[1e400]}}`,
		`{"text":"a","times":0.` + strings.Repeat("1", 2000) + `}`,
	} {
		f.Add(s)
	}
	h := load(f, nil, crashyDir)
	ses := session(f)
	f.Fuzz(func(t *testing.T, input string) {
		res, err := h.Call(context.Background(), &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(input), Session: ses})
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		switch res.Status {
		case host.StatusCompleted:
		case host.StatusFailed:
			if !strings.HasPrefix(res.Error, "invalid input for tool crashy_echo:\n  /") {
				t.Errorf("input %q: got failure %q, want invalid input", input, res.Error)
			}
		default:
			t.Errorf("input %q: got status %s (%s)", input, res.Status, res.Error)
		}
	})
}

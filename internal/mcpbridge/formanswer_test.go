package mcpbridge_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpbridge"
)

// connectUnchecked connects a 2025-11-25 client whose answers to forms
// reach the server unchecked, as from a client that does not check them
// (go-sdk's client checks its own answers against the form).
func connectUnchecked(t *testing.T, b mcpbridge.Backend, answer func(*mcp.ElicitParams) *mcp.ElicitResult) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpbridge.NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		// Declares form elicitation; the middleware answers instead.
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { panic("not called") },
	})
	c.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if r, ok := req.(*mcp.ElicitRequest); ok {
				return answer(r.Params), nil
			}
			return next(ctx, method, req)
		}
	})
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		cancel()
	})
	return cs
}

// TestFormAnswerRefused: in a 2025-11-25 session, an answer that does not
// fit the form is refused in the host's words and the question is asked
// again; the next answer completes the call.
func TestFormAnswerRefused(t *testing.T) {
	t.Parallel()
	h := loadHost(t, askingDir)
	var asked []string
	answers := []*mcp.ElicitResult{
		accept(map[string]any{"name": ""}), // breaks the form: a name is at least one character
		accept(map[string]any{"name": "Ada"}),
		accept(map[string]any{"color": "green"}),
	}
	cs := connectUnchecked(t, h, func(p *mcp.ElicitParams) *mcp.ElicitResult {
		asked = append(asked, p.Message)
		if len(asked) > len(answers) {
			return &mcp.ElicitResult{Action: "decline"}
		}
		return answers[len(asked)-1]
	})
	res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "asking_greet", Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if got, want := resultText(res), "Hello Ada, green"; res.IsError || got != want {
		t.Errorf("got isError %v, %q; want %q", res.IsError, got, want)
	}
	if len(asked) != 3 {
		t.Fatalf("asked %d questions %q, want 3: the name, the name again, the colour", len(asked), asked)
	}
	const refused = "Your last answer was refused: the answer does not fit the form:\n  /content/name: must be at least 1 character long, got 0.\n\n"
	if !strings.HasPrefix(asked[1], refused+"What is your name?") {
		t.Errorf("second question %q; want it to start %q and ask the name again", asked[1], refused)
	}
	if strings.HasPrefix(asked[0], "Your last answer") || strings.HasPrefix(asked[2], "Your last answer") {
		t.Errorf("questions %q: only the second should carry a refusal", asked)
	}
}

// TestFormAnswerRefusedThrice: a client that keeps answering wrong reads
// the refusal in the tool's result after the third try.
func TestFormAnswerRefusedThrice(t *testing.T) {
	t.Parallel()
	h := loadHost(t, askingDir)
	n := 0
	cs := connectUnchecked(t, h, func(*mcp.ElicitParams) *mcp.ElicitResult {
		n++
		return accept(map[string]any{"name": 5})
	})
	res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "asking_greet", Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if n != 3 {
		t.Errorf("asked %d times, want 3", n)
	}
	if got := resultText(res); !res.IsError || !strings.HasPrefix(got, "Tool failed: question name of tool asking_greet was asked three times and each answer was refused; the last: the answer does not fit the form:\n  /content/name: must be a string, got a number") {
		t.Errorf("got %q; want the refusal in the host's words", got)
	}
}

package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/host/testdata/mods/clientside"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/sdk"
)

const clientsideDir = "testdata/mods/clientside"

// loadClientside loads the clientside mod to run in the test's own
// process, with the quick mod beside it (never started).
func loadClientside(t *testing.T, opts *host.Options) *testHost {
	t.Helper()
	h := load(t, opts, clientsideDir, quickDir)
	if err := host.RunInProcess(h.Host, clientside.Modkit()); err != nil {
		t.Fatal(err)
	}
	return h
}

// answer is a client handler that replies a at once.
func answer(a sdk.ClientAnswer) host.ClientHandler {
	return func(c *host.ClientCall) { c.Reply(a) }
}

func callClient(t *testing.T, h *testHost, ctx context.Context, tool, input string, client host.ClientHandlers) *host.CallResult {
	t.Helper()
	res, err := h.Call(ctx, &host.CallRequest{Tool: tool, Input: json.RawMessage(input), Session: session(t), Client: client})
	if err != nil {
		t.Fatalf("Call(%s): %v", tool, err)
	}
	return res
}

func TestClientToolAnswers(t *testing.T) {
	t.Parallel()
	h := loadClientside(t, nil)
	const pick, measure = "clientside_pick", "clientside_measure"
	tests := []struct {
		name, tool, input string
		answer            sdk.ClientAnswer
		status            host.Status
		text, result      string
	}{
		{"text", pick, `{"choices":["a","b"]}`, sdk.ClientAnswer{Text: "b"}, host.StatusCompleted, "b", ""},
		{"error", pick, `{"choices":["a"]}`, sdk.ClientAnswer{Error: "the person closed the dialog"},
			host.StatusFailed, "Tool failed: the person closed the dialog", ""},
		{"typed result", measure, `{"element":"nav"}`, sdk.ClientAnswer{Text: "nav is 120 px wide", Result: json.RawMessage(`{"width":120}`)},
			host.StatusCompleted, "nav is 120 px wide", `{"width":120}`},
		{"typed result missing", measure, `{"element":"nav"}`, sdk.ClientAnswer{Text: "120"},
			host.StatusFailed, "Tool failed: the client answered tool clientside_measure without its typed result", ""},
		{"typed result invalid", measure, `{"element":"nav"}`, sdk.ClientAnswer{Text: "-1", Result: json.RawMessage(`{"width":-1}`)},
			host.StatusFailed, "Tool failed: the client answered tool clientside_measure with an invalid result:\n  /width: ", ""},
		{"typed result of a plain tool", pick, `{"choices":["a"]}`, sdk.ClientAnswer{Text: "a", Result: json.RawMessage(`{}`)},
			host.StatusFailed, "Tool failed: the client answered tool clientside_pick with a typed result, which a plain tool does not have", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got host.ClientCall
			res := callClient(t, h, context.Background(), tt.tool, tt.input, host.ClientHandlers{tt.tool: func(c *host.ClientCall) {
				got = *c
				c.Reply(tt.answer)
			}})
			wantStatus(t, res, tt.status)
			if !strings.HasPrefix(res.Text, tt.text) {
				t.Errorf("got text %q, want %q", res.Text, tt.text)
			}
			if string(res.Result) != tt.result {
				t.Errorf("got result %s, want %s", res.Result, tt.result)
			}
			if got.Tool != tt.tool || string(got.Input) != tt.input || got.CallID != res.CallID || got.Session.ID != "s1" {
				t.Errorf("handler got call %+v, want tool %s, input %s, call id %s, session s1", got, tt.tool, tt.input, res.CallID)
			}
		})
	}
}

func TestClientToolSecondAnswerDropped(t *testing.T) {
	t.Parallel()
	h := loadClientside(t, nil)
	done := make(chan struct{})
	res := callClient(t, h, context.Background(), "clientside_pick", `{"choices":["a","b"]}`, host.ClientHandlers{
		"clientside_pick": func(c *host.ClientCall) {
			defer close(done)
			c.Reply(sdk.ClientAnswer{Text: "a"})
			c.Reply(sdk.ClientAnswer{Text: "b"})
		}})
	wantStatus(t, res, host.StatusCompleted)
	if res.Text != "a" {
		t.Errorf("got text %q, want the first answer, a", res.Text)
	}
	<-done
	// The second answer finds the call still waiting for its end
	// (DroppedSecond) or already ended (DroppedLate): the host ends a call
	// as soon as its first answer comes, so either may be logged.
	logs := h.logs.String()
	second := contains(logs, "client answer dropped: "+modapi.DroppedSecond) || contains(logs, "client answer dropped: "+modapi.DroppedLate)
	if !second || !contains(logs, "text=b") {
		t.Errorf("the second answer was not logged as dropped; logs:\n%s", logs)
	}
}

func TestClientToolNeverAnswers(t *testing.T) {
	t.Parallel()
	h := loadClientside(t, &host.Options{ClientTimeout: 10 * time.Millisecond})
	ended := make(chan struct{})
	res := callClient(t, h, context.Background(), "clientside_pick", `{"choices":["a"]}`, host.ClientHandlers{
		"clientside_pick": func(c *host.ClientCall) {
			<-c.Context().Done()
			c.Reply(sdk.ClientAnswer{Text: "too late"})
			close(ended)
		}})
	wantStatus(t, res, host.StatusFailed)
	if want := "Tool failed: tool clientside_pick timed out after 10ms waiting for the client's answer"; res.Text != want {
		t.Errorf("got text %q, want %q", res.Text, want)
	}
	<-ended
	if logs := h.logs.String(); !contains(logs, "client answer dropped: the call had ended") {
		t.Errorf("the late answer was not logged as dropped; logs:\n%s", logs)
	}
}

func TestClientToolCancelled(t *testing.T) {
	t.Parallel()
	h := loadClientside(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	handlerEnded := make(chan struct{})
	client := host.ClientHandlers{"clientside_pick": func(c *host.ClientCall) {
		cancel() // the person closed the conversation
		<-c.Context().Done()
		close(handlerEnded)
	}}
	res := callClient(t, h, ctx, "clientside_pick", `{"choices":["a"]}`, client)
	wantStatus(t, res, host.StatusCancelled)
	<-handlerEnded
}

func TestClientToolWithoutHandler(t *testing.T) {
	t.Parallel()
	h := loadClientside(t, nil)
	res := call(t, h, "clientside_pick", `{"choices":["a"]}`)
	wantStatus(t, res, host.StatusFailed)
	if want := "Tool failed: tool clientside_pick runs in the client application, and no client handler was given for it"; res.Text != want {
		t.Errorf("got text %q, want %q", res.Text, want)
	}
	// A tool that runs either way runs in its mod without a client ...
	res = call(t, h, "clientside_clock", `{}`)
	wantStatus(t, res, host.StatusCompleted)
	if res.Text != "mod: 2026-01-02" {
		t.Errorf("got text %q, want the mod's answer", res.Text)
	}
	// ... and in the client with one.
	res = callClient(t, h, context.Background(), "clientside_clock", `{}`,
		host.ClientHandlers{"clientside_clock": answer(sdk.ClientAnswer{Text: "client: 2026-01-03"})})
	if res.Text != "client: 2026-01-03" {
		t.Errorf("got text %q, want the client's answer", res.Text)
	}
}

// Validation, the input type's Validate and the hooks judge a call before
// any client handler sees it.
func TestClientToolJudgedFirst(t *testing.T) {
	t.Parallel()
	h := loadClientside(t, nil)
	var calls atomic.Int32
	client := host.ClientHandlers{"clientside_pick": func(c *host.ClientCall) {
		calls.Add(1)
		c.Reply(sdk.ClientAnswer{Text: "ok"})
	}}
	for _, tt := range []struct{ input, want string }{
		{`{"choices":[]}`, "Tool failed: invalid input for tool clientside_pick:\n  /choices: "},
		{`{"choices":["a","a"]}`, "Tool failed: invalid input for tool clientside_pick:\n  /choices: a is offered twice"},
		{`{"choices":["forbidden"]}`, "Tool failed: blocked by a hook of mod clientside: forbidden is not a choice"},
	} {
		res := callClient(t, h, context.Background(), "clientside_pick", tt.input, client)
		wantStatus(t, res, host.StatusFailed)
		if !strings.HasPrefix(res.Text, tt.want) {
			t.Errorf("%s: got text %q, want %q", tt.input, res.Text, tt.want)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the client handler ran %d times, want 0", n)
	}
}

func TestClientToolHandlerPanics(t *testing.T) {
	t.Parallel()
	h := loadClientside(t, nil)
	res := callClient(t, h, context.Background(), "clientside_pick", `{"choices":["a"]}`,
		host.ClientHandlers{"clientside_pick": func(*host.ClientCall) { panic("no dialog") }})
	wantStatus(t, res, host.StatusFailed)
	if want := "Tool failed: the client handler of tool clientside_pick panicked: no dialog"; res.Text != want {
		t.Errorf("got text %q, want %q", res.Text, want)
	}
}

func TestHandleClientTool(t *testing.T) {
	t.Parallel()
	h := loadClientside(t, nil)
	if err := h.HandleClientTool("clientside_pik", answer(sdk.ClientAnswer{})); !errors.Is(err, host.ErrUnknownTool) {
		t.Errorf("unknown tool: got %v, want ErrUnknownTool", err)
	}
	if err := h.HandleClientTool("quick_echo", answer(sdk.ClientAnswer{})); err == nil || err.Error() != "tool quick_echo runs in mod quick; no client can run it" {
		t.Errorf("tool of the mod: got %v", err)
	}
	if err := h.HandleClientTool("clientside_pick", answer(sdk.ClientAnswer{Text: "registered"})); err != nil {
		t.Fatal(err)
	}
	if res := call(t, h, "clientside_pick", `{"choices":["a"]}`); res.Text != "registered" {
		t.Errorf("got text %q, want the registered handler's", res.Text)
	}
	// The call's own handler wins.
	res := callClient(t, h, context.Background(), "clientside_pick", `{"choices":["a"]}`,
		host.ClientHandlers{"clientside_pick": answer(sdk.ClientAnswer{Text: "session"})})
	if res.Text != "session" {
		t.Errorf("got text %q, want the call's handler's", res.Text)
	}
	if err := h.HandleClientTool("clientside_pick", nil); err != nil {
		t.Fatal(err)
	}
	if res := call(t, h, "clientside_pick", `{"choices":["a"]}`); res.Status != host.StatusFailed {
		t.Errorf("after removing the handler: got %s %q, want failed", res.Status, res.Text)
	}
}

// Across the process boundary, the mod judges the input, its Validate
// included, and runs its hooks before the client handler sees the call.
func TestClientToolInModProcess(t *testing.T) {
	t.Parallel()
	h := load(t, nil, clientsideDir)
	var calls atomic.Int32
	client := host.ClientHandlers{"clientside_pick": func(c *host.ClientCall) {
		calls.Add(1)
		c.Reply(sdk.ClientAnswer{Text: "picked " + string(c.Input)})
	}}
	for _, tt := range []struct{ input, want string }{
		{`{"choices":["a","a"]}`, "Tool failed: invalid input for tool clientside_pick:\n  /choices: a is offered twice"},
		{`{"choices":["forbidden"]}`, "Tool failed: blocked by a hook of mod clientside: forbidden is not a choice"},
		{`{"choices":["a"]}`, `picked {"choices":["a"]}`},
	} {
		if res := callClient(t, h, context.Background(), "clientside_pick", tt.input, client); res.Text != tt.want {
			t.Errorf("%s: got %s %q, want %q", tt.input, res.Status, res.Text, tt.want)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("the client handler ran %d times, want 1", n)
	}
}

func TestClientToolHostClosed(t *testing.T) {
	t.Parallel()
	h := loadClientside(t, nil)
	res := callClient(t, h, context.Background(), "clientside_pick", `{"choices":["a"]}`, host.ClientHandlers{
		"clientside_pick": func(c *host.ClientCall) {
			go h.Close()
			<-c.Context().Done()
		}})
	wantStatus(t, res, host.StatusFailed)
	if want := "Tool failed: the host closed before the client answered tool clientside_pick"; res.Text != want {
		t.Errorf("got text %q, want %q", res.Text, want)
	}
}

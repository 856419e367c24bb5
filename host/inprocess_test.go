package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/host/testdata/mods/crashy"
	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

// loadInProcess loads the crashy mod to run in the test's own process.
func loadInProcess(t *testing.T, opts *host.Options) *testHost {
	t.Helper()
	h := load(t, opts, crashyDir)
	if err := host.RunInProcess(h.Host, crashy.Modkit()); err != nil {
		t.Fatal(err)
	}
	return h
}

// ruleCase is one operation whose outcome a rule of the call decides.
type ruleCase struct {
	name string
	// kind is "call", "command" or "slash"; id is the tool or command, arg
	// its input, arguments or text.
	kind, id, arg string
	// want is the text a model reads (calls) or the message or error a
	// person reads (commands); prefix accepts any text starting with it.
	want   string
	prefix bool
}

var ruleCases = []ruleCase{
	{name: "completed", kind: "call", id: "crashy_echo", arg: `{"text":"hi","times":2}`, want: "hi hi"},
	{name: "invalid input", kind: "call", id: "crashy_echo", arg: `{"text":5}`, want: "Tool failed: invalid input for tool crashy_echo:\n  /text: ", prefix: true},
	{name: "handler error", kind: "call", id: "crashy_fail", arg: `{}`, want: "Tool failed: nothing to do here"},
	{name: "handler panic", kind: "call", id: "crashy_panic", arg: `{}`, want: "Tool failed: tool crashy_panic panicked: kaboom"},
	{name: "result at the cap", kind: "call", id: "crashy_big", arg: `{"bytes":1000}`, want: strings.Repeat("x", 1000)},
	{name: "result over the cap", kind: "call", id: "crashy_big", arg: `{"bytes":1001}`,
		want: "Tool failed: tool crashy_big returned 1001 bytes, over the 1000-byte result limit; it should return a compact result"},
	{name: "hook refusal", kind: "call", id: "crashy_blocked", arg: `{}`, want: "Tool failed: blocked by a hook of mod crashy: crashy_blocked is never allowed"},
	{name: "command", kind: "command", id: "crashy.hello", arg: `{"to":"you"}`, want: `hello {"to":"you"}`},
	{name: "command panic", kind: "command", id: "crashy.panicking_command", want: "command crashy.panicking_command panicked: command kaboom"},
	{name: "message at the cap", kind: "command", id: "crashy.oversized", arg: "1000", want: strings.Repeat("x", 1000)},
	{name: "message over the cap", kind: "command", id: "crashy.oversized", arg: "1001",
		want: "command crashy.oversized returned 1001 bytes, over the 1000-byte message limit; it should return a short message"},
	{name: "slash text trimmed", kind: "slash", id: "shout", arg: " \t hey  there \n", want: "HEY  THERE"},
}

// viaHost runs c through h and returns what a model or person reads. A
// failed command reads as the mod's own error, without the host's
// "<command> of mod crashy failed: " in front, which it checks.
func viaHost(t *testing.T, h *testHost, c ruleCase) string {
	t.Helper()
	ctx := context.Background()
	var msg string
	var err error
	what := "command " + c.id
	switch c.kind {
	case "call":
		res, err := h.Call(ctx, &host.CallRequest{Tool: c.id, Input: json.RawMessage(c.arg), Session: session(t)})
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		return res.Text
	case "command":
		msg, err = h.RunCommand(ctx, c.id, json.RawMessage(c.arg), session(t))
	case "slash":
		what = "slash command /" + c.id
		msg, err = h.RunSlashCommand(ctx, c.id, c.arg, session(t))
	}
	if err != nil {
		prefix := what + " of mod crashy failed: "
		if !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("got error %q, want it to start with %q", err, prefix)
		}
		return strings.TrimPrefix(err.Error(), prefix)
	}
	return msg
}

// viaModtest runs c with sdk/modtest, as a mod author's test does.
func viaModtest(t *testing.T, c ruleCase) string {
	t.Helper()
	g := crashy.Modkit()
	// Unconfined: this package's TestMain builds the test mods, which a
	// confined process of the test binary could not do before it serves.
	opts := &modtest.Options{MaxResultBytes: 1000, Hooks: true, Unconfined: true}
	var msg string
	var err error
	switch c.kind {
	case "call":
		return modtest.Run(t, g, c.id, c.arg, opts).Text
	case "command":
		msg, err = modtest.RunCommand(t, g, c.id, c.arg, opts)
	case "slash":
		msg, err = modtest.RunSlashCommand(t, g, "/"+c.id+" "+c.arg, opts)
	}
	if err != nil {
		return err.Error()
	}
	return msg
}

// TestOneCallPath shows that the rules of a call (input validation and its
// wording, panic recovery, the result and message caps, hook refusals,
// slash-command trimming) are the same for a mod in its own process, the
// same mod in the host's process, and the same mod under sdk/modtest.
func TestOneCallPath(t *testing.T) {
	t.Parallel()
	opts := func() *host.Options { return &host.Options{MaxResultBytes: 1000} }
	inAProcess := load(t, opts(), crashyDir)
	inProcess := loadInProcess(t, opts())
	for _, c := range ruleCases {
		t.Run(c.name, func(t *testing.T) {
			got := map[string]string{
				"a mod process":      viaHost(t, inAProcess, c),
				"the host's process": viaHost(t, inProcess, c),
				"modtest":            viaModtest(t, c),
			}
			for where, text := range got {
				if text != c.want && !(c.prefix && strings.HasPrefix(text, c.want)) {
					t.Errorf("in %s: got %q, want %q", where, text, c.want)
				}
				// A prefix case compares only the prefix: problem wording
				// is the validators' (the host's schema check runs before
				// hooks, modtest's generated validator otherwise).
				if other := got["a mod process"]; text != other && !c.prefix {
					t.Errorf("in %s: got %q, but %q in a mod process", where, text, other)
				}
			}
		})
	}
}

func TestInProcessViewAndActivity(t *testing.T) {
	t.Parallel()
	h := loadInProcess(t, nil)
	var events []host.ActivityEvent
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool: "crashy_flood", Input: json.RawMessage(`{"n":3}`), Session: session(t),
		OnActivity: func(e host.ActivityEvent) { events = append(events, e) },
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCompleted)
	if len(events) != 5 || events[3].Seq != 3 || res.Activity.Status != "done" || !res.Activity.Ended {
		t.Errorf("got %d events and activity %+v, want a title, three numbered entries and a status, ended", len(events), res.Activity)
	}
	html, err := h.RenderView(context.Background(), "crashy_report", sdk.RawViewState{Phase: sdk.PhaseFailed, Error: "no <luck>"})
	if want := "<p class=error>no &lt;luck&gt;</p>"; err != nil || html != want {
		t.Errorf("got %q, %v; want %q", html, err, want)
	}
}

func TestInProcessCancel(t *testing.T) {
	t.Parallel()
	h := loadInProcess(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	res, err := h.Call(ctx, &host.CallRequest{
		Tool: "crashy_wait", Input: json.RawMessage(`{}`), Session: session(t),
		OnActivity: func(e host.ActivityEvent) {
			if e.State.Status == "waiting" {
				cancel()
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCancelled)
}

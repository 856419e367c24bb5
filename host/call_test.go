package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

func TestCallEcho(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool: "crashy_echo", Input: json.RawMessage(`{"text":"hi","times":2}`),
		Session: session(t), Label: "call-7",
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCompleted)
	if res.Text != "hi hi" {
		t.Errorf("got text %q, want %q", res.Text, "hi hi")
	}
	if res.Label != "call-7" || !strings.HasPrefix(res.CallID, "call_") {
		t.Errorf("got call id %q and label %q, want a host id and label call-7", res.CallID, res.Label)
	}
	if len(res.Outputs) != 2 || res.Outputs[0].Content != "hi hi" || res.Outputs[1].MimeType != "application/json" {
		t.Fatalf("got outputs %+v, want the output then the extra", res.Outputs)
	}
	want := `{"today":"2026-01-02","session":"s1","call":"` + res.CallID + `"}`
	if got := res.Outputs[1].Content; got != want {
		t.Errorf("got call info %s, want %s", got, want)
	}
	if res.Activity.Title != "Echo" {
		t.Errorf("got title %q, want %q", res.Activity.Title, "Echo")
	}
	if res.Result != nil {
		t.Errorf("got typed result %s from a plain tool, want none", res.Result)
	}
}

func TestCallGeneratesCallID(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	a := call(t, h, "crashy_echo", `{"text":"a"}`)
	b := call(t, h, "crashy_echo", `{"text":"b"}`)
	id := regexp.MustCompile(`^call_[0-9a-f]{24}$`)
	if !id.MatchString(a.CallID) || !id.MatchString(b.CallID) || a.CallID == b.CallID {
		t.Errorf("got call ids %q and %q, want two different ids matching %s", a.CallID, b.CallID, id)
	}
}

// A caller's id in the deprecated CallRequest.CallID is the call's label;
// the host names the call itself.
func TestDeprecatedCallIDIsLabel(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool: "crashy_echo", Input: json.RawMessage(`{"text":"hi"}`),
		Session: session(t), CallID: "mine-1",
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCompleted)
	if res.Label != "mine-1" || !strings.HasPrefix(res.CallID, "call_") {
		t.Errorf("got call id %q and label %q, want a host id and label mine-1", res.CallID, res.Label)
	}
}

// A label is the caller's, and two calls may share one: cancelling one
// must not get the mod killed for the other, which still runs.
func TestLabelIsNotIdentity(t *testing.T) {
	t.Parallel()
	h := load(t, &host.Options{GracePeriod: time.Second}, crashyDir)
	host.KeepGraceFromMods(h.Host) // only the host's check, keyed by call id
	started, other := startCall(h, &host.CallRequest{Tool: "crashy_wait", Label: "same", Session: session(t)})
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	res, err := h.Call(ctx, &host.CallRequest{Tool: "crashy_wait", Label: "same", Session: session(t),
		OnActivity: func(host.ActivityEvent) { cancel() }})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCancelled)
	waitFor(t, "the host to check the cancelled handler", func() bool {
		return strings.Contains(h.logs.String(), "cancelled handler ended within the grace period")
	})
	h.Close()
	// Closing, not a kill for the cancelled call, ended the other call.
	if got, want := await(t, other).Error, "mod crashy was stopped: the host closed"; got != want {
		t.Errorf("other call: got error %q, want %q", got, want)
	}
	if n := strings.Count(h.logs.String(), "mod started"); n != 1 {
		t.Errorf("got %d mod starts, want 1", n)
	}
}

// TestCallInvalidInput: crashy hooks tool calls, so its generated
// validator judges the input before the hooks run.
func TestCallInvalidInput(t *testing.T) {
	t.Parallel()
	h := loadInProcess(t, nil)
	allowed := `(allowed: "text", "times")`
	tests := []struct {
		name, tool, input string
		want              []string
	}{
		{"malformed", "crashy_echo", `{"text":`, []string{"/: invalid JSON at byte 8: unexpected end of input"}},
		{"trailing", "crashy_echo", `{"text":"a"} {}`, []string{"/: invalid JSON at byte 13: unexpected data after the top-level value"}},
		{"not an object", "crashy_echo", `[1]`, []string{"/: must be an object, got an array"}},
		{"wrong type", "crashy_echo", `{"text":5}`, []string{"/text: must be a string, got a number"}},
		{"unknown field", "crashy_echo", `{"text":"a","colour":"red"}`, []string{`/: unknown property "colour" ` + allowed}},
		{"missing", "crashy_echo", `{}`, []string{`/: missing required property "text"`}},
		{"too big", "crashy_echo", `{"text":"a","times":80}`, []string{"/times: must be at most 5, got 80"}},
		{"every problem", "crashy_echo", `{"times":-1,"x":1}`, []string{"/times: must be at least 0, got -1", `/: unknown property "x" ` + allowed, `/: missing required property "text"`}},
		{"enum", "crashy_crash", `{"how":"gently"}`, []string{`/how: must be one of "exit", "goroutine", "lane", got "gently"`}},
		{"huge number", "crashy_echo", `{"text":"a","times":1e10000000}`, []string{"/times: must be at most 5, got 1e10000000"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, h, tt.tool, tt.input)
			wantStatus(t, res, host.StatusFailed)
			want := "invalid input for tool " + tt.tool + ":\n  " + strings.Join(tt.want, "\n  ")
			if res.Error != want {
				t.Errorf("got error\n%s\nwant\n%s", res.Error, want)
			}
			if res.Text != "Tool failed: "+want {
				t.Errorf("got text %q, want %q", res.Text, "Tool failed: "+want)
			}
		})
	}
}

func TestCallUnknownTool(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	_, err := h.Call(context.Background(), &host.CallRequest{Tool: "crashy_ecko", Session: session(t)})
	if !errors.Is(err, host.ErrUnknownTool) {
		t.Fatalf("got error %v, want ErrUnknownTool", err)
	}
	if !strings.Contains(err.Error(), "closest: crashy_echo") {
		t.Errorf("got %q, want it to name crashy_echo as closest", err)
	}
}

func TestAgentAllowlist(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	tools, err := h.Tools("echoer")
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 || tools[0].Name != "crashy_echo" || tools[0].Mod != "crashy" {
		t.Errorf("got tools %+v, want only crashy_echo of crashy", tools)
	}
	all, err := h.Tools("")
	if err != nil {
		t.Fatal(err)
	}
	if want := len(h.Mods()[0].Tools); len(all) != want {
		t.Errorf("got %d tools with no agent, want all %d", len(all), want)
	}
	if _, err := h.Tools("nobody"); !errors.Is(err, host.ErrUnknownAgent) {
		t.Errorf("Tools(nobody): got %v, want ErrUnknownAgent", err)
	}
	ctx := context.Background()
	res, err := h.Call(ctx, &host.CallRequest{Tool: "crashy_echo", Agent: "echoer", Input: json.RawMessage(`{"text":"ok"}`), Session: session(t)})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCompleted)
	_, err = h.Call(ctx, &host.CallRequest{Tool: "crashy_fail", Agent: "echoer", Session: session(t)})
	if !errors.Is(err, host.ErrNotAllowed) {
		t.Errorf("got %v, want ErrNotAllowed", err)
	}
}

func TestHandlerFailureAndPanic(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	tests := []struct{ tool, want string }{
		{"crashy_fail", "Tool failed: nothing to do here"},
		{"crashy_panic", "Tool failed: tool crashy_panic panicked: kaboom"},
	}
	for _, tt := range tests {
		res := call(t, h, tt.tool, `{}`)
		wantStatus(t, res, host.StatusFailed)
		if res.Text != tt.want {
			t.Errorf("%s: got text %q, want %q", tt.tool, res.Text, tt.want)
		}
	}
	// The panic did not take the mod down: the same process answers.
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"still here"}`), host.StatusCompleted)
	if n := strings.Count(h.logs.String(), "mod started"); n != 1 {
		t.Errorf("got %d mod starts, want 1", n)
	}
}

func TestCrashFailsCallAndRestarts(t *testing.T) {
	t.Parallel()
	tests := []struct{ how, want string }{
		{"exit", "mod crashy crashed: exit status 3"},
		{"goroutine", "mod crashy crashed: panic: crashy goroutine panic"},
	}
	for _, tt := range tests {
		t.Run(tt.how, func(t *testing.T) {
			h := load(t, nil, crashyDir)
			// Watching live, the activity sent before the crash is kept:
			// the mod exits once the host has seen its status.
			dir := t.TempDir()
			var once sync.Once
			res, err := h.Call(context.Background(), &host.CallRequest{
				Tool: "crashy_crash", Input: json.RawMessage(`{"how":"` + tt.how + `","after":"seen"}`), Session: inWorkspace(dir),
				OnActivity: func(ev host.ActivityEvent) {
					if ev.State.Status == "about to crash" {
						once.Do(func() { os.WriteFile(filepath.Join(dir, "seen"), nil, 0o644) })
					}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			wantStatus(t, res, host.StatusFailed)
			if res.Error != tt.want {
				t.Errorf("got error %q, want %q", res.Error, tt.want)
			}
			if tt.how == "exit" && res.Activity.Status != "about to crash" {
				t.Errorf("got status %q, want the activity before the crash", res.Activity.Status)
			}
			wantStatus(t, call(t, h, "crashy_echo", `{"text":"back"}`), host.StatusCompleted)
			if n := strings.Count(h.logs.String(), "mod started"); n != 2 {
				t.Errorf("got %d mod starts, want 2", n)
			}
		})
	}
}

func TestCrashFailsEveryCallInFlight(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"exit", "goroutine"} {
		t.Run(how, func(t *testing.T) {
			h := load(t, nil, crashyDir)
			want := map[string]string{"exit": "mod crashy crashed: exit status 3", "goroutine": "mod crashy crashed: panic: crashy goroutine panic"}[how]
			var calls []<-chan callDone
			for range 3 {
				started, done := startCall(h, &host.CallRequest{Tool: "crashy_wait", Session: session(t)})
				<-started
				calls = append(calls, done)
			}
			res := call(t, h, "crashy_crash", `{"how":"`+how+`"}`)
			wantStatus(t, res, host.StatusFailed)
			if res.Error != want {
				t.Errorf("crashing call: got error %q, want %q", res.Error, want)
			}
			for i, done := range calls {
				res := await(t, done)
				wantStatus(t, res, host.StatusFailed)
				if res.Error != want {
					t.Errorf("call %d in flight: got error %q, want %q", i, res.Error, want)
				}
			}
		})
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	marker := filepath.Join(t.TempDir(), "seen")
	ctx, cancel := context.WithCancel(context.Background())
	res, err := h.Call(ctx, &host.CallRequest{
		Tool: "crashy_wait", Input: json.RawMessage(`{"marker":` + strconv.Quote(marker) + `}`), Session: inWorkspace(filepath.Dir(marker)),
		OnActivity: func(e host.ActivityEvent) {
			if e.Update.Kind == sdk.ActivityStatus {
				cancel()
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCancelled)
	if res.Text != "" {
		t.Errorf("got text %q for a cancelled call, want none", res.Text)
	}
	// The handler saw the cancellation: it writes the marker then.
	waitForFile(t, marker)
	after, err := h.Call(context.Background(), &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"after"}`), Session: inWorkspace(filepath.Dir(marker))})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, after, host.StatusCompleted)
	if n := strings.Count(h.logs.String(), "mod started"); n != 1 {
		t.Errorf("got %d mod starts, want 1: a handler that ends on cancellation keeps its mod", n)
	}
}

func waitForFile(t testing.TB, path string) string {
	t.Helper()
	var data []byte
	waitFor(t, filepath.Base(path)+" to be written", func() bool {
		var err error
		data, err = os.ReadFile(path)
		return err == nil && len(data) > 0
	})
	return string(data)
}

// cancelHang runs a crashy_hang call, cancels it once it runs and returns
// the pid of the process that ran it.
func cancelHang(t *testing.T, h *testHost) int {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var pid int
	res, err := h.Call(ctx, &host.CallRequest{
		Tool: "crashy_hang", Session: session(t),
		OnActivity: func(e host.ActivityEvent) {
			pid = host.PID(h.Host, "crashy")
			cancel()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCancelled)
	if pid == 0 {
		t.Fatal("no mod process while the call ran")
	}
	return pid
}

func TestIgnoredCancellationEndsModAfterGrace(t *testing.T) {
	t.Parallel()
	h := load(t, &host.Options{GracePeriod: 300 * time.Millisecond}, crashyDir)
	pid := cancelHang(t, h)
	waitGone(t, []int{pid})
	waitForLog(t, h, "a cancelled handler ignored cancellation past the grace period; the mod exited")
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"fresh"}`), host.StatusCompleted)
}

// A mod that does not end itself at the grace period is killed by the host.
func TestHostKillsModPastGrace(t *testing.T) {
	t.Parallel()
	h := load(t, &host.Options{GracePeriod: 100 * time.Millisecond}, crashyDir)
	host.KeepGraceFromMods(h.Host)
	pid := cancelHang(t, h)
	waitGone(t, []int{pid})
	waitForLog(t, h, "handler ignored cancellation past the grace period; killing the mod")
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"fresh"}`), host.StatusCompleted)
}

func TestOperationTimeouts(t *testing.T) {
	t.Parallel()
	// The grace period leaves a busy machine time to end the handlers that
	// do end on cancellation.
	const d = 150 * time.Millisecond
	h := load(t, &host.Options{HookTimeout: d, CommandTimeout: d, ViewTimeout: d, GracePeriod: time.Second}, crashyDir)
	ctx := context.Background()
	_, err := h.RunCommand(ctx, "crashy.wait", nil, session(t))
	if want := "command crashy.wait: timed out after 150ms"; err == nil || err.Error() != want {
		t.Errorf("command: got %v, want %q", err, want)
	}
	_, err = h.RunCommand(ctx, "crashy.guarded", nil, session(t))
	if want := "command crashy.guarded: hook of mod crashy before command:crashy.guarded: timed out after 150ms"; err == nil || err.Error() != want {
		t.Errorf("hook: got %v, want %q", err, want)
	}
	// Those handlers ended on cancellation: the mod lives on.
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	if n := strings.Count(h.logs.String(), "mod started"); n != 1 {
		t.Errorf("got %d mod starts, want 1", n)
	}
	// A view cannot be cancelled: past the grace period its mod ends.
	pid := host.PID(h.Host, "crashy")
	_, err = h.RenderView(ctx, "crashy_report", sdk.RawViewState{Phase: sdk.PhaseRunning, Input: json.RawMessage(`{"title":"hang"}`)})
	if want := "render view of crashy_report: timed out after 150ms"; err == nil || err.Error() != want {
		t.Errorf("view: got %v, want %q", err, want)
	}
	waitGone(t, []int{pid})
	waitForLog(t, h, "the mod exited") // the host has seen it exit
	_, err = h.RunCommand(ctx, "crashy.hang", nil, session(t))
	if want := "command crashy.hang: timed out after 150ms"; err == nil || err.Error() != want {
		t.Errorf("hanging command: got %v, want %q", err, want)
	}
	waitFor(t, "the mod to exit again", func() bool {
		return strings.Count(h.logs.String(), "the mod exited") == 2
	})
}

func TestCallTimeout(t *testing.T) {
	t.Parallel()
	h := load(t, &host.Options{CallTimeout: 200 * time.Millisecond}, crashyDir)
	res := call(t, h, "crashy_wait", `{}`)
	wantStatus(t, res, host.StatusFailed)
	if res.Error != "tool crashy_wait timed out after 200ms" {
		t.Errorf("got error %q", res.Error)
	}
}

// TestActivityFlood sends more log entries than a call keeps: the first
// 1000 arrive in order, then one entry saying the log was truncated.
func TestActivityFlood(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	const n, kept = 3000, 1000
	var events []host.ActivityEvent
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool: "crashy_flood", Input: json.RawMessage(`{"n":` + strconv.Itoa(n) + `}`), Session: session(t),
		OnActivity: func(e host.ActivityEvent) { events = append(events, e) },
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCompleted)
	if len(events) != kept+3 {
		t.Fatalf("got %d events, want %d", len(events), kept+3)
	}
	if e := events[0]; e.Update.Kind != sdk.ActivityTitle || e.State.Title != "Flood" || e.Seq != 0 {
		t.Errorf("got first event %+v, want the title", e.Update)
	}
	for i, e := range events[1 : kept+1] {
		if e.Seq != i+1 || e.Update.Text != "entry "+strconv.Itoa(i+1) || len(e.State.Log) != i+1 {
			t.Fatalf("event %d: got seq %d text %q log length %d, want seq %d", i+1, e.Seq, e.Update.Text, len(e.State.Log), i+1)
		}
	}
	if e := events[kept+1]; e.Seq != kept+1 || !strings.HasPrefix(e.Update.Text, "log truncated: ") {
		t.Errorf("got event %d %q, want the truncation entry", e.Seq, e.Update.Text)
	}
	if last := events[kept+2]; last.State.Status != "done" {
		t.Errorf("got last status %q, want done", last.State.Status)
	}
	if len(res.Activity.Log) != kept+1 || !res.Activity.Ended {
		t.Errorf("got final activity with %d entries, ended %v; want %d entries, ended", len(res.Activity.Log), res.Activity.Ended, kept+1)
	}
	// Without a watcher the activity travels with the outcome, capped alike.
	res, err = h.Call(context.Background(), &host.CallRequest{
		Tool: "crashy_flood", Input: json.RawMessage(`{"n":` + strconv.Itoa(n) + `}`), Session: session(t)})
	if err != nil {
		t.Fatal(err)
	}
	if wantStatus(t, res, host.StatusCompleted); len(res.Activity.Log) != kept+1 {
		t.Errorf("one round trip: got %d entries, want %d", len(res.Activity.Log), kept+1)
	}
}

func TestModOutputDoesNotBreakProtocol(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	res := call(t, h, "crashy_noisy", `{}`)
	wantStatus(t, res, host.StatusCompleted)
	for _, want := range []string{
		"crashy says hello on stdout",
		"crashy says hello on stderr",
		`level=WARN msg="crashy logs a warning"`,
	} {
		waitForLog(t, h, want)
	}
	// Each line names its mod and the call it came from.
	for _, line := range strings.Split(h.logs.String(), "\n") {
		if strings.Contains(line, "crashy says hello") && !strings.Contains(line, "mod=crashy") ||
			strings.Contains(line, "crashy says hello") && !strings.Contains(line, "call="+res.CallID) {
			t.Errorf("got log line %q, want it to name mod crashy and call %s", line, res.CallID)
		}
	}
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"fine"}`), host.StatusCompleted)
}

func waitForLog(t *testing.T, h *testHost, want string) {
	t.Helper()
	waitFor(t, "the logs to say "+strconv.Quote(want), func() bool { return strings.Contains(h.logs.String(), want) })
}

func TestResultCap(t *testing.T) {
	t.Parallel()
	h := load(t, &host.Options{MaxResultBytes: 1000}, crashyDir)
	wantStatus(t, call(t, h, "crashy_big", `{"bytes":1000}`), host.StatusCompleted)
	res := call(t, h, "crashy_big", `{"bytes":1001}`)
	wantStatus(t, res, host.StatusFailed)
	want := "tool crashy_big returned 1001 bytes, over the 1000-byte result limit; it should return a compact result"
	if res.Error != want {
		t.Errorf("got error %q, want %q", res.Error, want)
	}
}

func TestHookBlocksCall(t *testing.T) {
	t.Parallel()
	h := loadInProcess(t, nil)
	res := call(t, h, "crashy_blocked", `{}`)
	wantStatus(t, res, host.StatusFailed)
	want := "Tool failed: blocked by a hook of mod crashy: crashy_blocked is never allowed"
	if res.Text != want {
		t.Errorf("got %q, want %q", res.Text, want)
	}
}

func TestRenderedToolAndView(t *testing.T) {
	t.Parallel()
	h := loadInProcess(t, nil)
	res := call(t, h, "crashy_report", `{"title":"three small words"}`)
	wantStatus(t, res, host.StatusCompleted)
	if want := `{"words":3,"title":"three small words"}`; string(res.Result) != want {
		t.Errorf("got result %s, want %s", res.Result, want)
	}
	if want := `"three small words" has 3 words`; res.Text != want {
		t.Errorf("got text %q, want %q", res.Text, want)
	}
	ctx := context.Background()
	tests := []struct {
		state sdk.RawViewState
		want  string
	}{
		{sdk.RawViewState{Phase: sdk.PhasePreparing, Input: json.RawMessage(`{"title":"<b>`)}, "<p>preparing </p>"},
		{sdk.RawViewState{Phase: sdk.PhaseRunning, Input: json.RawMessage(`{"title":"<b>"}`)}, "<p>running &lt;b&gt;</p>"},
		{sdk.RawViewState{Phase: sdk.PhaseCompleted, Input: json.RawMessage(`{}`), Result: res.Result}, "<p>three small words: 3 words</p>"},
		{sdk.RawViewState{Phase: sdk.PhaseFailed, Error: "no <luck>"}, "<p class=error>no &lt;luck&gt;</p>"},
	}
	for _, tt := range tests {
		got, err := h.RenderView(ctx, "crashy_report", tt.state)
		if err != nil {
			t.Errorf("%s: %v", tt.state.Phase, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.state.Phase, got, tt.want)
		}
	}
	if _, err := h.RenderView(ctx, "crashy_echo", sdk.RawViewState{Phase: sdk.PhaseRunning}); !errors.Is(err, host.ErrNoView) {
		t.Errorf("got %v, want ErrNoView", err)
	}
}

func TestCommands(t *testing.T) {
	t.Parallel()
	h := loadInProcess(t, nil)
	ctx := context.Background()
	tests := []struct {
		id, args, want, wantErr string
	}{
		{id: "crashy.hello", want: "hello on 2026-01-02"},
		{id: "crashy.hello", args: `{"to":"you"}`, want: `hello {"to":"you"}`},
		{id: "crashy.refused", wantErr: "command crashy.refused: blocked by a hook of mod crashy: not today"},
		{id: "crashy.hallo", wantErr: `unknown command: no command "crashy.hallo"; closest: crashy.hello, crashy.hang, crashy.wait`},
		{id: "crashy.hello", args: `{`, wantErr: "command crashy.hello: arguments are not valid JSON"},
	}
	for _, tt := range tests {
		got, err := h.RunCommand(ctx, tt.id, json.RawMessage(tt.args), session(t))
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%s %s: got error %v, want %q", tt.id, tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s %s: got %q, %v; want %q", tt.id, tt.args, got, err, tt.want)
		}
	}
	got, err := h.RunSlashCommand(ctx, "shout", "hey there", session(t))
	if err != nil || got != "HEY THERE" {
		t.Errorf("slash shout: got %q, %v; want HEY THERE", got, err)
	}
}

func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text := "n" + strconv.Itoa(i)
			res, err := h.Call(context.Background(), &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"` + text + `"}`), Session: session(t)})
			if err != nil || res.Status != host.StatusCompleted || res.Text != text {
				t.Errorf("got %+v, %v; want completed %q", res, err, text)
			}
		}()
	}
	wg.Wait()
	if n := strings.Count(h.logs.String(), "mod started"); n != 1 {
		t.Errorf("got %d mod starts for concurrent first calls, want 1", n)
	}
}

func TestCloseStopsCallsInFlight(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"crashy_wait", "crashy_hang"} {
		t.Run(tool, func(t *testing.T) {
			// crashy_hang ignores cancellation: it ends at the grace period.
			h := load(t, &host.Options{GracePeriod: 100 * time.Millisecond}, crashyDir)
			started, done := startCall(h, &host.CallRequest{Tool: tool, Session: session(t)})
			<-started
			pid := host.PID(h.Host, "crashy")
			h.Close()
			res := await(t, done)
			wantStatus(t, res, host.StatusFailed)
			if want := "mod crashy was stopped: the host closed"; res.Error != want {
				t.Errorf("got error %q, want %q", res.Error, want)
			}
			if alive(pid) {
				t.Errorf("mod process %d still runs after Close", pid)
			}
		})
	}
}

// Close stops a build under way rather than waiting for it.
func TestCloseStopsBuild(t *testing.T) {
	t.Parallel()
	building := make(chan struct{})
	var once sync.Once
	h := load(t, &host.Options{CacheDir: t.TempDir(), Progress: writerFunc(func(p []byte) {
		if strings.Contains(string(p), "building mod crashy") {
			once.Do(func() { close(building) })
		}
	})}, crashyDir)
	_, done := startCall(h, &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"x"}`), Session: session(t)})
	<-building
	h.Close()
	if d := <-done; !errors.Is(d.err, host.ErrClosed) {
		t.Errorf("call during the build: got %+v, %v; want ErrClosed", d.res, d.err)
	}
}

type writerFunc func(p []byte)

func (f writerFunc) Write(p []byte) (int, error) {
	f(p)
	return len(p), nil
}

func TestCallAfterClose(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	pid := host.PID(h.Host, "crashy")
	if pid == 0 {
		t.Fatal("no mod process found after a call")
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Errorf("mod process %d still runs after Close", pid)
	}
	_, err := h.Call(context.Background(), &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"x"}`), Session: session(t)})
	if !errors.Is(err, host.ErrClosed) {
		t.Errorf("got %v, want ErrClosed", err)
	}
}

func TestModsAndToolsAreCopies(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	m := h.Mods()[0]
	m.ID = "changed"
	m.Tools[0].Name = "changed"
	m.Tools[0].InputSchema[0] = ' '
	tools, err := h.Tools("")
	if err != nil {
		t.Fatal(err)
	}
	tools[0].InputSchema[0] = ' '
	if got := h.Mods()[0]; got.ID != "crashy" || got.Tools[0].Name == "changed" || got.Tools[0].InputSchema[0] != '{' {
		t.Errorf("changing what Mods returned changed the host's manifest: id %q, tool %q", got.ID, got.Tools[0].Name)
	}
	if again, _ := h.Tools(""); again[0].InputSchema[0] != '{' {
		t.Errorf("changing what Tools returned changed the host's schema: %s", again[0].InputSchema)
	}
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
}

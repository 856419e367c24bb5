package protocol

import (
	"context"
	"errors"
	"fmt"
	"net"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// stepMod answers a call's steps: its hook refuses tool "refused" and
// waits for cancellation on tool "wait", its check finds a problem in the
// input "bad", its approval rule asks for a reason on tool "ask"; tool
// "fail" makes each step fail.
type stepMod struct {
	modapi.Mod
	waiting chan struct{} // closed when a hook waits for cancellation
	gone    chan struct{} // closed when the waiting hook saw it
}

var errStep = errors.New("the step broke")

func (m *stepMod) BeforeAction(ctx context.Context, req *modapi.ActionRequest) (*modapi.ActionResponse, error) {
	switch req.Action.Tool {
	case "fail":
		return nil, errStep
	case "wait":
		close(m.waiting)
		<-ctx.Done()
		close(m.gone)
		return nil, ctx.Err()
	case "refused":
		return &modapi.ActionResponse{Refusal: "no " + req.Action.Name + " of " + string(req.Action.Input) + " on " + req.Today}, nil
	}
	return &modapi.ActionResponse{}, nil
}

func (m *stepMod) CheckInput(_ context.Context, req *modapi.CheckRequest) (*modapi.CheckResponse, error) {
	switch {
	case req.Tool == "fail":
		return nil, errStep
	case string(req.Input) == "bad":
		return &modapi.CheckResponse{Problems: []string{"/: bad"}}, nil
	}
	return &modapi.CheckResponse{Decoded: "decoded " + string(req.Input)}, nil
}

func (m *stepMod) NeedsApproval(_ context.Context, req *modapi.ApprovalRequest) (*modapi.ApprovalResponse, error) {
	switch req.Tool {
	case "fail":
		return nil, errStep
	case "ask":
		return &modapi.ApprovalResponse{Reason: "asked for " + req.Session.Workspace}, nil
	}
	return &modapi.ApprovalResponse{}, nil
}

// TestLaneSteps checks that hooks, input checks and approval rules go over
// the lane, tracked and traced as their gRPC methods are: the lane's client
// has no gRPC connection to fall back on.
func TestLaneSteps(t *testing.T) {
	var mu sync.Mutex
	var begun, traced []string
	srv := &LaneServer{
		Impl: &stepMod{},
		Begin: func(_ context.Context, method string, req any) func() {
			id := ""
			if r, ok := req.(interface{ GetCallId() string }); ok {
				id = r.GetCallId()
			}
			mu.Lock()
			begun = append(begun, method+" "+id)
			mu.Unlock()
			return func() {}
		},
		Trace: func(ctx context.Context, traceparent, _, _ string) context.Context {
			mu.Lock()
			traced = append(traced, traceparent)
			mu.Unlock()
			return ctx
		},
		Spans: func(dst []byte) []byte { return append(dst, "spans"...) },
	}
	var spans []string
	c := newLane(t, srv, LaneOptions{
		Steps: true,
		Trace: func(context.Context) (string, string, string, bool) { return "tp", "", "", true },
		Spans: func(batch string) { spans = append(spans, batch) },
	})
	ctx := t.Context()

	hook, err := c.BeforeAction(ctx, &modapi.ActionRequest{
		Action: sdk.Action{Name: sdk.ActionToolCall, Tool: "refused", Input: []byte(`{}`)}, Today: "2026-01-02",
		Run: modapi.Run{CallID: "h1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "no tool.call of {} on 2026-01-02"; hook.Refusal != want {
		t.Errorf("hook: got refusal %q, want %q", hook.Refusal, want)
	}
	check, err := c.CheckInput(ctx, &modapi.CheckRequest{Tool: "t", Input: []byte("bad")})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/: bad"}; !slices.Equal(check.Problems, want) {
		t.Errorf("check: got problems %q, want %q", check.Problems, want)
	}
	rule, err := c.NeedsApproval(ctx, &modapi.ApprovalRequest{Tool: "ask", Session: sdk.Session{Workspace: "/w"}, Run: modapi.Run{CallID: "a1"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "asked for /w"; rule.Reason != want {
		t.Errorf("approval: got reason %q, want %q", rule.Reason, want)
	}

	mu.Lock()
	defer mu.Unlock()
	wantBegun := []string{pb.Mod_BeforeAction_FullMethodName + " h1", pb.Mod_CheckInput_FullMethodName + " ", pb.Mod_NeedsApproval_FullMethodName + " a1"}
	if !slices.Equal(begun, wantBegun) {
		t.Errorf("got handlers begun %q, want %q", begun, wantBegun)
	}
	if want := []string{"tp", "tp", "tp"}; !slices.Equal(traced, want) {
		t.Errorf("got trace contexts %q, want %q", traced, want)
	}
	if want := []string{"spans", "spans", "spans"}; !slices.Equal(spans, want) {
		t.Errorf("got span batches %q, want %q", spans, want)
	}
}

// TestLaneStepFailures checks that a step the mod cannot run fails with
// its words, and the lane goes on.
func TestLaneStepFailures(t *testing.T) {
	c := newLane(t, &LaneServer{Impl: &stepMod{}}, LaneOptions{Steps: true})
	ctx := t.Context()
	_, err := c.BeforeAction(ctx, &modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall, Tool: "fail"}})
	if k, _ := transportKind(err); k != modapi.TransportOther || msg(err) != errStep.Error() {
		t.Errorf("hook: got %v (kind %v), want the mod's %q", err, k, errStep)
	}
	_, err = c.CheckInput(ctx, &modapi.CheckRequest{Tool: "fail"})
	if msg(err) != errStep.Error() {
		t.Errorf("check: got %v, want the mod's %q", err, errStep)
	}
	_, err = c.NeedsApproval(ctx, &modapi.ApprovalRequest{Tool: "fail"})
	if msg(err) != errStep.Error() {
		t.Errorf("approval: got %v, want the mod's %q", err, errStep)
	}
	if _, err := c.CheckInput(ctx, &modapi.CheckRequest{Tool: "t"}); err != nil {
		t.Errorf("after the failures: %v", err)
	}

	// A mod without approval rules says so.
	bare := newLane(t, &LaneServer{Impl: laneMod{}}, LaneOptions{Steps: true})
	_, err = bare.NeedsApproval(ctx, &modapi.ApprovalRequest{Tool: "t"})
	if msg(err) != errNoApprovalRule {
		t.Errorf("no rule: got %v, want %q", err, errNoApprovalRule)
	}
}

// TestLaneStepCancel checks that cancelling a step returns at once and
// cancels the hook in the mod.
func TestLaneStepCancel(t *testing.T) {
	m := &stepMod{waiting: make(chan struct{}), gone: make(chan struct{})}
	c := newLane(t, &LaneServer{Impl: m}, LaneOptions{Steps: true})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.BeforeAction(ctx, &modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall, Tool: "wait"}})
		done <- err
	}()
	<-m.waiting
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want the context's cancellation", err)
	}
	<-m.gone // the hook saw its context end
	if _, err := c.CheckInput(t.Context(), &modapi.CheckRequest{Tool: "t"}); err != nil {
		t.Errorf("after the cancel: %v", err)
	}
}

// grpcSteps is a gRPC client that answers the steps itself.
type grpcSteps struct {
	pb.ModClient
}

func (grpcSteps) BeforeAction(context.Context, *pb.BeforeActionRequest, ...grpc.CallOption) (*pb.BeforeActionResponse, error) {
	return &pb.BeforeActionResponse{Refusal: "over gRPC"}, nil
}

func (grpcSteps) CheckInput(context.Context, *pb.CheckInputRequest, ...grpc.CallOption) (*pb.CheckInputResponse, error) {
	return &pb.CheckInputResponse{Error: "over gRPC"}, nil
}

func (grpcSteps) NeedsApproval(context.Context, *pb.NeedsApprovalRequest, ...grpc.CallOption) (*pb.NeedsApprovalResponse, error) {
	return &pb.NeedsApprovalResponse{Reason: "over gRPC"}, nil
}

// TestLaneStepsOverGRPC checks that a mod that does not serve steps on its
// lane (an older one) gets them over gRPC.
func TestLaneStepsOverGRPC(t *testing.T) {
	a, b := net.Pipe()
	t.Cleanup(func() { b.Close() })
	c := NewLaneClient(&GRPCClient{PB: grpcSteps{}}, a, LaneOptions{MaxMessageBytes: 1 << 10})
	t.Cleanup(func() { c.Close() })
	ctx := t.Context()
	hook, err := c.BeforeAction(ctx, &modapi.ActionRequest{})
	if err != nil || hook.Refusal != "over gRPC" {
		t.Errorf("hook: got %+v, %v; want the gRPC answer", hook, err)
	}
	check, err := c.CheckInput(ctx, &modapi.CheckRequest{})
	if err != nil || check.Error != "over gRPC" {
		t.Errorf("check: got %+v, %v; want the gRPC answer", check, err)
	}
	rule, err := c.NeedsApproval(ctx, &modapi.ApprovalRequest{})
	if err != nil || rule.Reason != "over gRPC" {
		t.Errorf("approval: got %+v, %v; want the gRPC answer", rule, err)
	}
}

// TestLaneStepHostileMod checks that a mod answering a step with what does
// not end a step, or with another step's result, breaks the lane.
func TestLaneStepHostileMod(t *testing.T) {
	tests := []struct {
		name string
		kind frameKind
		m    *pb.LaneStepResult
		want string
	}{
		{"outcome", kindOutcome, nil, "a frame (outcome) for a step, which ends with a step result"},
		{"another step's result", kindStepEnd,
			&pb.LaneStepResult{Response: &pb.LaneStepResult_CheckInput{CheckInput: &pb.CheckInputResponse{}}},
			"a step result frame answers a hook with an input check"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var violation error
			c, mod := rawLane(t, LaneOptions{Steps: true, Violation: func(err error) { violation = err }})
			go func() {
				fr := newFrameReader(mod, 1<<10)
				id, _, _, _ := fr.next()
				w := frameWriter{w: mod, limit: 1 << 10}
				if tt.m != nil {
					_ = w.send(id, tt.kind, tt.m)
				} else {
					_ = w.send(id, tt.kind, &pb.LaneOutcome{})
				}
			}()
			_, err := c.BeforeAction(t.Context(), &modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall}})
			if k, _ := transportKind(err); k != modapi.TransportBroken || !strings.HasSuffix(msg(err), tt.want) {
				t.Errorf("got %v, want the lane broken: %s", err, tt.want)
			}
			if violation == nil {
				t.Error("the host was not told of the violation")
			}
		})
	}
}

// aheadMod is stepMod whose tool calls echo: it counts the handlers run,
// and keeps the last one's decoded input.
type aheadMod struct {
	*stepMod
	ran     atomic.Int32
	decoded atomic.Value
}

func (m *aheadMod) CallTool(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
	m.ran.Add(1)
	m.decoded.Store(fmt.Sprint(req.Decoded))
	return echo(ctx, req)
}

// TestLaneAhead checks that the input check and the hooks that travel with
// a call run before its handler, in order, and that the first that stops
// the call says so instead of the handler's outcome.
func TestLaneAhead(t *testing.T) {
	hook := func(tool string) *modapi.ActionRequest {
		return &modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall, Tool: tool}, Today: "today", Run: modapi.Run{CallID: "h1"}}
	}
	tests := []struct {
		name, tool, input string
		ahead             modapi.Ahead
		want              *modapi.Stopped // nil: the handler ran
	}{
		{"both pass", "t", "ok", modapi.Ahead{Check: true, Hook: hook("t")}, nil},
		{"the check alone", "t", "ok", modapi.Ahead{Check: true}, nil},
		{"problems", "t", "bad", modapi.Ahead{Check: true, Hook: hook("refused")}, &modapi.Stopped{Problems: []string{"/: bad"}}},
		{"the check fails", "fail", "ok", modapi.Ahead{Check: true, Hook: hook("t")}, &modapi.Stopped{CheckFailure: errStep.Error()}},
		{"refused", "t", "ok", modapi.Ahead{Check: true, Hook: hook("refused")}, &modapi.Stopped{Refusal: "no tool.call of  on today"}},
		{"the hook fails", "t", "ok", modapi.Ahead{Hook: hook("fail")}, &modapi.Stopped{HookFailure: errStep.Error()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &aheadMod{stepMod: &stepMod{}}
			var begun []string
			srv := &LaneServer{Impl: m, Begin: func(_ context.Context, method string, req any) func() {
				if r, ok := req.(interface{ GetCallId() string }); ok {
					begun = append(begun, method+" "+r.GetCallId())
				}
				return func() {}
			}}
			c := newLane(t, srv, LaneOptions{Steps: true})
			a := tt.ahead
			resp, err := c.CallTool(t.Context(), &modapi.CallRequest{Tool: tt.tool, Input: []byte(tt.input), CallID: "c1", Ahead: &a})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(resp.Stopped, tt.want) {
				t.Errorf("got stopped %+v, want %+v", resp.Stopped, tt.want)
			}
			if ran := m.ran.Load() == 1; ran != (tt.want == nil) || (ran && resp.Outcome.Text != tt.input) {
				t.Errorf("handler ran: %v, outcome %+v; want it to run only when the steps pass", ran, resp.Outcome)
			}
			// The handler runs with the input its check decoded.
			if want := "decoded " + tt.input; a.Check && tt.want == nil && m.decoded.Load() != want {
				t.Errorf("the handler got the decoded input %v, want %q", m.decoded.Load(), want)
			}
			if a.Hook != nil && tt.want == nil && !slices.Contains(begun, pb.Mod_BeforeAction_FullMethodName+" h1") {
				t.Errorf("got handlers begun %q, want the hook's tracked by its call id", begun)
			}
		})
	}
}

// TestLaneAheadHookTimeout checks that a hook past its timeout has its
// context cancelled and the call answered at once, the handler never run.
func TestLaneAheadHookTimeout(t *testing.T) {
	m := &aheadMod{stepMod: &stepMod{waiting: make(chan struct{}), gone: make(chan struct{})}}
	c := newLane(t, &LaneServer{Impl: m}, LaneOptions{Steps: true})
	resp, err := c.CallTool(t.Context(), &modapi.CallRequest{Tool: "t", Ahead: &modapi.Ahead{
		Hook: &modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall, Tool: "wait"}}, HookTimeout: 20 * time.Millisecond,
	}})
	if err != nil {
		t.Fatal(err)
	}
	if want := (&modapi.Stopped{HookTimedOut: true}); !reflect.DeepEqual(resp.Stopped, want) {
		t.Errorf("got stopped %+v, want %+v", resp.Stopped, want)
	}
	<-m.gone // the hook saw its context end
	if m.ran.Load() != 0 {
		t.Error("the handler ran after its hook timed out")
	}
}

// TestLaneAheadCancel checks that a call cancelled while its hook runs
// returns at once and cancels the hook.
func TestLaneAheadCancel(t *testing.T) {
	m := &aheadMod{stepMod: &stepMod{waiting: make(chan struct{}), gone: make(chan struct{})}}
	c := newLane(t, &LaneServer{Impl: m}, LaneOptions{Steps: true})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, &modapi.CallRequest{Tool: "t", Ahead: &modapi.Ahead{
			Hook: &modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall, Tool: "wait"}},
		}})
		done <- err
	}()
	<-m.waiting
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want the context's cancellation", err)
	}
	<-m.gone
	if m.ran.Load() != 0 {
		t.Error("the handler ran after its call was cancelled")
	}
}

// TestLaneAheadTrack checks that with Track set, a hook that travels with
// its call is tracked by Track, as the handler after it, each by its own
// call id; and that a hook past its timeout is told it was cancelled
// before it ends, so that its grace period runs.
func TestLaneAheadTrack(t *testing.T) {
	events := make(chan string, 16)
	srv := &LaneServer{Impl: &aheadMod{stepMod: &stepMod{waiting: make(chan struct{}), gone: make(chan struct{})}}}
	srv.Begin = func(context.Context, string, any) func() {
		t.Error("got Begin, want Track")
		return func() {}
	}
	srv.Track = func(method string, req any) LaneTracked {
		id := req.(interface{ GetCallId() string }).GetCallId()
		events <- "track " + method + " " + id
		return trackLog{id, events}
	}
	c := newLane(t, srv, LaneOptions{Steps: true})
	hook := func(tool string) *modapi.ActionRequest {
		return &modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall, Tool: tool}, Run: modapi.Run{CallID: "h1"}}
	}
	want := func(what ...string) { t.Helper(); wantEvents(t, events, what...) }
	resp, err := c.CallTool(t.Context(), &modapi.CallRequest{Tool: "t", Input: []byte("ok"), CallID: "c1", Ahead: &modapi.Ahead{Hook: hook("t")}})
	if err != nil || resp.Stopped != nil || resp.Outcome.Text != "ok" {
		t.Fatalf("got %+v, %v; want the handler's outcome ok", resp, err)
	}
	want("track "+pb.Mod_BeforeAction_FullMethodName+" h1", "end h1", "track "+pb.Mod_CallTool_FullMethodName+" c1", "end c1")

	resp, err = c.CallTool(t.Context(), &modapi.CallRequest{Tool: "t", CallID: "c2", Ahead: &modapi.Ahead{Hook: hook("wait"), HookTimeout: 10 * time.Millisecond}})
	if err != nil || resp.Stopped == nil || !resp.Stopped.HookTimedOut {
		t.Fatalf("got %+v, %v; want the hook timed out", resp, err)
	}
	want("track "+pb.Mod_BeforeAction_FullMethodName+" h1", "cancelled h1", "end h1")
	select {
	case got := <-events:
		t.Errorf("got %q after the hook ended, want nothing: the handler never runs", got)
	case <-time.After(20 * time.Millisecond):
	}
}

// TestAheadNeedsLaneSteps checks that steps ahead of a call are never
// dropped: a client whose mod does not take them refuses the call.
func TestAheadNeedsLaneSteps(t *testing.T) {
	req := &modapi.CallRequest{Tool: "t", Ahead: &modapi.Ahead{Check: true}}
	c := newLane(t, &LaneServer{Impl: &aheadMod{stepMod: &stepMod{}}}, LaneOptions{})
	if _, err := c.CallTool(t.Context(), req); !errors.Is(err, errNoAhead) {
		t.Errorf("lane without steps: got %v, want %v", err, errNoAhead)
	}
	if _, err := (&GRPCClient{}).CallTool(t.Context(), req); !errors.Is(err, errNoAhead) {
		t.Errorf("gRPC: got %v, want %v", err, errNoAhead)
	}
}

// TestLaneStoppedUnasked checks that a mod saying a call's steps stopped
// it, when the call carried none, breaks the lane.
func TestLaneStoppedUnasked(t *testing.T) {
	c, mod := rawLane(t, LaneOptions{Steps: true})
	go func() {
		fr := newFrameReader(mod, 1<<10)
		id, _, _, _ := fr.next()
		w := frameWriter{w: mod, limit: 1 << 10}
		_ = w.send(id, kindOutcome, &pb.LaneOutcome{Stopped: &pb.LaneStopped{Refusal: "no"}})
	}()
	_, err := c.CallTool(t.Context(), &modapi.CallRequest{Tool: "t"})
	if want := "an outcome frame stops a call before steps it did not carry"; !strings.HasSuffix(msg(err), want) {
		t.Errorf("got %v, want the lane broken: %s", err, want)
	}
}

package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-plugin"

	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/goplugin"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/serve"
)

type In struct {
	N int `json:"n"`
}

type Out struct {
	Double int `json:"double"`
}

var testMod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "t"},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[In]{Name: "t_count", Run: func(tc *sdk.ToolContext, in In) (sdk.Result, error) {
			tc.Title("Counting")
			for i := range in.N {
				tc.Log(strings.Repeat("x", i+1))
			}
			return sdk.Text("counted for " + tc.Session().ID + " on " + tc.Today()), nil
		}},
		sdk.PlainTool[In]{Name: "t_panic", Run: func(tc *sdk.ToolContext, in In) (sdk.Result, error) {
			panic("oh no")
		}},
		sdk.PlainTool[In]{Name: "t_wait", Run: func(tc *sdk.ToolContext, in In) (sdk.Result, error) {
			tc.Status("waiting")
			<-tc.Done()
			return sdk.Result{}, tc.Err()
		}},
		sdk.RenderedTool[In, Out]{Name: "t_double",
			Run: func(tc *sdk.ToolContext, in In) (Out, error) { return Out{Double: 2 * in.N}, nil },
			View: sdk.View[In, Out]{
				Text:   func(o Out) string { return "doubled" },
				Render: func(s sdk.ViewState[In, Out]) string { return string(s.Phase) },
			},
		},
	}},
	Commands: []sdk.Command{{ID: "t.hi", Title: "Hi", Run: func(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
		return "hi " + string(args) + " " + env.Session.ID, nil
	}}},
	SlashCommands: []sdk.SlashCommand{{ID: "up", Run: func(ctx context.Context, env *sdk.Env, text string) (string, error) {
		return strings.ToUpper(text), nil
	}}},
	Hooks: []sdk.Hook{{BeforeAction: sdk.ActionToolCall, Run: func(ctx context.Context, env *sdk.Env, a sdk.Action) error {
		if a.Tool == "t_panic" && strings.Contains(string(a.Input), "13") {
			return errors.New("unlucky")
		}
		return nil
	}}},
	Activate: func(ctx context.Context, env *sdk.Env) error {
		env.Logger.Info("activated", "today", env.Today)
		return nil
	},
})

var testGenerated = &sdk.Generated{
	Mod:      testMod,
	Manifest: []byte(`{"id":"t"}`),
	Inputs: map[string]sdk.InputDecoder{
		"t_count": func(data []byte) (any, error) {
			var in In
			if err := json.Unmarshal(data, &in); err != nil {
				return nil, &sdk.InputError{Problems: []string{"/: " + err.Error()}}
			}
			if in.N > 100 {
				return nil, &sdk.InputError{Problems: []string{"/n: must be at most 100, got " + string(data[5:len(data)-1])}}
			}
			return in, nil
		},
	},
}

// start serves g in this process and returns a client for it.
func start(t testing.TB, g *sdk.Generated) pb.ModClient {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("serving in the test's process needs Linux or macOS, where a mod serves without go-plugin")
	}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan net.Addr, 1)
	closed := make(chan struct{})
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	go func() {
		defer close(closed)
		if err := serve.ServeTest(ctx, g, &serve.Options{Logger: logger}, addr); err != nil {
			t.Error(err)
		}
	}()
	var rc *plugin.ReattachConfig
	select {
	case a := <-addr:
		rc = &plugin.ReattachConfig{Protocol: plugin.ProtocolGRPC, ProtocolVersion: protocol.Version, Addr: a, Pid: os.Getpid(), Test: true}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start")
	}
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  goplugin.Handshake,
		Plugins:          goplugin.PluginSets(nil)[protocol.Version], // reattaching negotiates nothing
		Reattach:         rc,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		Logger:           goplugin.HCLogger(logger),
	})
	t.Cleanup(func() {
		client.Kill()
		cancel()
		<-closed
	})
	rpc, err := client.Client()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := rpc.Dispense(protocol.PluginName)
	if err != nil {
		t.Fatal(err)
	}
	return raw.(*protocol.GRPCClient).PB
}

// collect runs a call and returns its activity and outcome.
func collect(t *testing.T, c pb.ModClient, req *pb.CallToolRequest) ([]*pb.Activity, *pb.Outcome) {
	t.Helper()
	stream, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var acts []*pb.Activity
	for {
		ev, err := stream.Recv()
		if err != nil {
			t.Fatalf("stream ended without an outcome: %v", err)
		}
		if a := ev.GetActivity(); a != nil {
			acts = append(acts, a)
			continue
		}
		if b := ev.GetActivities(); b != nil {
			acts = append(acts, b.GetUpdates()...)
			continue
		}
		o := ev.GetOutcome()
		if _, err := stream.Recv(); err != io.EOF {
			t.Errorf("got %v after the outcome, want the end of the stream", err)
		}
		return acts, o
	}
}

func TestServeRequiresManifest(t *testing.T) {
	if err := serve.Serve(nil, nil); err == nil {
		t.Error("Serve(nil): got no error")
	}
	if err := serve.Serve(&sdk.Generated{Mod: testMod}, nil); err == nil || !strings.Contains(err.Error(), "run go generate") {
		t.Errorf("Serve without manifest: got %v, want a hint to run go generate", err)
	}
}

func TestDescribeAndActivate(t *testing.T) {
	c := start(t, testGenerated)
	ctx := context.Background()
	d, err := c.Describe(ctx, &pb.DescribeRequest{})
	if err != nil || string(d.GetManifest()) != `{"id":"t"}` {
		t.Errorf("Describe: got %s, %v", d.GetManifest(), err)
	}
	a, err := c.Activate(ctx, &pb.ActivateRequest{Today: "2026-01-02"})
	if err != nil || a.GetError() != "" {
		t.Errorf("Activate: got %v, %v", a, err)
	}
}

func TestCallToolStreamsActivityThenOutcome(t *testing.T) {
	c := start(t, testGenerated)
	acts, o := collect(t, c, &pb.CallToolRequest{Tool: "t_count", Input: []byte(`{"n":3}`),
		Session: &pb.Session{Id: "s1"}, Today: "2026-01-02", CallId: "c1"})
	if len(acts) != 4 || acts[0].GetKind() != pb.ActivityKind_ACTIVITY_KIND_TITLE || acts[3].GetText() != "xxx" {
		t.Errorf("got activity %v, want a title and three log entries", acts)
	}
	if o.GetStatus() != pb.Status_STATUS_COMPLETED || o.GetText() != "counted for s1 on 2026-01-02" {
		t.Errorf("got outcome %v", o)
	}
}

func TestCallToolOnceReturnsActivityWithOutcome(t *testing.T) {
	c := start(t, testGenerated)
	resp, err := c.CallToolOnce(context.Background(), &pb.CallToolRequest{Tool: "t_count", Input: []byte(`{"n":2}`),
		Session: &pb.Session{Id: "s1"}, Today: "2026-01-02"})
	if err != nil {
		t.Fatal(err)
	}
	acts := resp.GetActivity()
	if len(acts) != 3 || acts[0].GetText() != "Counting" || acts[2].GetText() != "xx" {
		t.Errorf("got activity %v, want a title and two log entries", acts)
	}
	if o := resp.GetOutcome(); o.GetStatus() != pb.Status_STATUS_COMPLETED || o.GetText() != "counted for s1 on 2026-01-02" {
		t.Errorf("got outcome %v", o)
	}
	resp, err = c.CallToolOnce(context.Background(), &pb.CallToolRequest{Tool: "t_panic", Input: []byte(`{}`)})
	if err != nil || resp.GetOutcome().GetError() != "tool t_panic panicked: oh no" {
		t.Errorf("panic: got %v, %v", resp, err)
	}
}

func TestCallToolFailures(t *testing.T) {
	c := start(t, testGenerated)
	tests := []struct {
		name, tool, input, wantErr string
		wantProblems               []string
	}{
		{"unknown tool", "t_nope", `{}`, "mod t has no tool t_nope", nil},
		{"generated decoder", "t_count", `{"n":101}`, "invalid input: /n: must be at most 100, got 101", []string{"/n: must be at most 100, got 101"}},
		{"json fallback", "t_double", `{"n":"x"}`, "invalid input:", []string{"/n: must be an integer in range, got a string"}},
		{"panic", "t_panic", `{}`, "tool t_panic panicked: oh no", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, o := collect(t, c, &pb.CallToolRequest{Tool: tt.tool, Input: []byte(tt.input)})
			if o.GetStatus() != pb.Status_STATUS_FAILED || !strings.HasPrefix(o.GetError(), tt.wantErr) {
				t.Errorf("got %v %q, want failed %q", o.GetStatus(), o.GetError(), tt.wantErr)
			}
			for i, p := range tt.wantProblems {
				if i >= len(o.GetProblems()) || !strings.Contains(o.GetProblems()[i], p) {
					t.Errorf("got problems %q, want %q", o.GetProblems(), tt.wantProblems)
				}
			}
		})
	}
	// The mod still serves after a panic.
	if _, o := collect(t, c, &pb.CallToolRequest{Tool: "t_count", Input: []byte(`{"n":0}`)}); o.GetStatus() != pb.Status_STATUS_COMPLETED {
		t.Errorf("after a panic: got %v", o)
	}
}

func TestResultCap(t *testing.T) {
	c := start(t, testGenerated)
	_, o := collect(t, c, &pb.CallToolRequest{Tool: "t_count", Input: []byte(`{"n":0}`), MaxResultBytes: 5})
	if o.GetStatus() != pb.Status_STATUS_FAILED || !strings.Contains(o.GetError(), "over the 5-byte result limit") {
		t.Errorf("got %v", o)
	}
}

func TestCancelReachesHandler(t *testing.T) {
	c := start(t, testGenerated)
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := c.CallTool(ctx, &pb.CallToolRequest{Tool: "t_wait", Input: []byte(`{}`), CallId: "w1"})
	if err != nil {
		t.Fatal(err)
	}
	if ev, err := stream.Recv(); err != nil || ev.GetActivity().GetText() != "waiting" {
		t.Fatalf("got %v, %v; want the waiting status", ev, err)
	}
	running, err := c.CallRunning(context.Background(), &pb.CallRunningRequest{CallId: "w1"})
	if err != nil || !running.GetRunning() {
		t.Fatalf("CallRunning before cancel: got %v, %v; want running", running, err)
	}
	cancel()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		r, err := c.CallRunning(context.Background(), &pb.CallRunningRequest{CallId: "w1"})
		if err != nil {
			t.Fatal(err)
		}
		if !r.GetRunning() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the handler still runs 5s after cancel")
		}
	}
}

func TestRenderView(t *testing.T) {
	c := start(t, testGenerated)
	ctx := context.Background()
	r, err := c.RenderView(ctx, &pb.RenderViewRequest{Tool: "t_double", Phase: "completed", Result: []byte(`{"double":4}`)})
	if err != nil || !r.GetHasView() || r.GetHtml() != "completed" {
		t.Errorf("got %v, %v", r, err)
	}
	r, err = c.RenderView(ctx, &pb.RenderViewRequest{Tool: "t_count", Phase: "running"})
	if err != nil || r.GetHasView() {
		t.Errorf("plain tool: got %v, %v; want no view", r, err)
	}
}

func TestCommandsAndHooks(t *testing.T) {
	c := start(t, testGenerated)
	ctx := context.Background()
	s := &pb.Session{Id: "s2"}
	tests := []struct {
		req       *pb.RunCommandRequest
		want, err string
	}{
		{&pb.RunCommandRequest{Id: "t.hi", Args: []byte(`[1]`), Session: s}, "hi [1] s2", ""},
		{&pb.RunCommandRequest{Id: "up", Slash: true, Text: "loud"}, "LOUD", ""},
		{&pb.RunCommandRequest{Id: "t.nope"}, "", "mod t has no command t.nope"},
		{&pb.RunCommandRequest{Id: "nope", Slash: true}, "", "mod t has no slash command nope"},
	}
	for _, tt := range tests {
		r, err := c.RunCommand(ctx, tt.req)
		if err != nil || r.GetMessage() != tt.want || r.GetError() != tt.err {
			t.Errorf("%s: got %v, %v; want %q, error %q", tt.req.GetId(), r, err, tt.want, tt.err)
		}
	}
	for _, tt := range []struct{ input, refusal string }{{`{"n":13}`, "unlucky"}, {`{"n":12}`, ""}} {
		r, err := c.BeforeAction(ctx, &pb.BeforeActionRequest{Action: sdk.ActionToolCall, Tool: "t_panic", Input: []byte(tt.input)})
		if err != nil || r.GetRefusal() != tt.refusal {
			t.Errorf("hook on %s: got %v, %v; want refusal %q", tt.input, r, err, tt.refusal)
		}
	}
}

func TestCheckInput(t *testing.T) {
	c := start(t, testGenerated)
	ctx := context.Background()
	tests := []struct {
		tool, input string
		problems    []string
		err         string
	}{
		{"t_count", `{"n":5}`, nil, ""},
		{"t_count", `{"n":500}`, []string{"/n: must be at most 100, got 500"}, ""},
		{"t_nope", `{}`, nil, "mod t has no tool t_nope"},
	}
	for _, tt := range tests {
		r, err := c.CheckInput(ctx, &pb.CheckInputRequest{Tool: tt.tool, Input: []byte(tt.input)})
		if err != nil || !slices.Equal(r.GetProblems(), tt.problems) || r.GetError() != tt.err {
			t.Errorf("%s %s: got %v, %v; want problems %q, error %q", tt.tool, tt.input, r, err, tt.problems, tt.err)
		}
	}
}

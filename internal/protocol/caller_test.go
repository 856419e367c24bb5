package protocol

import (
	"context"
	"encoding/json"
	"net"
	"reflect"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// testCaller has every field of a caller set.
var testCaller = &sdk.Caller{Subject: "ada", ClientID: "app-1", Scopes: []string{"notes.read", "notes.write"},
	Claims: map[string]json.RawMessage{"email": json.RawMessage(`"ada@example.com"`), "groups": json.RawMessage(`["staff"]`)}}

// callerMod records the caller of each call and approval request.
type callerMod struct {
	modapi.Mod
	calls     chan *sdk.Caller
	approvals chan *sdk.Caller
}

func (m callerMod) CallTool(_ context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
	m.calls <- req.Caller
	return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCompleted}}, nil
}

func (m callerMod) NeedsApproval(_ context.Context, req *modapi.ApprovalRequest) (*modapi.ApprovalResponse, error) {
	m.approvals <- req.Caller
	return &modapi.ApprovalResponse{}, nil
}

// GRPCConn serves what register registers over an in-memory gRPC
// connection and returns the host's end of it; both close when the test
// ends.
func GRPCConn(t testing.TB, register func(*grpc.Server)) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer()
	register(gs)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// TestCallerOnTheWire: the caller of a call and of its approval request
// reaches the mod whole over gRPC (streamed and in one round trip) and
// over the call lane; a call without one reaches it without one.
func TestCallerOnTheWire(t *testing.T) {
	t.Parallel()
	m := callerMod{calls: make(chan *sdk.Caller, 1), approvals: make(chan *sdk.Caller, 1)}
	g := &GRPCClient{PB: pb.NewModClient(GRPCConn(t, func(gs *grpc.Server) { pb.RegisterModServer(gs, &GRPCServer{Impl: m}) }))}
	transports := map[string]modapi.Mod{
		"grpc":      g,
		"grpc once": g,
		"lane":      newLane(t, &LaneServer{Impl: m}, LaneOptions{}),
	}
	for name, mod := range transports {
		for _, caller := range []*sdk.Caller{testCaller, {Subject: "local:ada", Local: true, AllScopes: true}, nil} {
			req := &modapi.CallRequest{Tool: "t", Input: json.RawMessage(`{}`), Caller: caller}
			if name == "grpc" {
				req.OnActivity = func(sdk.ActivityUpdate) {}
			}
			if _, err := mod.CallTool(t.Context(), req); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got := <-m.calls; !reflect.DeepEqual(got, caller) {
				t.Errorf("%s: the mod's call got caller %+v, want %+v", name, got, caller)
			}
		}
	}
	for _, caller := range []*sdk.Caller{testCaller, nil} {
		if _, err := g.NeedsApproval(t.Context(), &modapi.ApprovalRequest{Tool: "t", Caller: caller}); err != nil {
			t.Fatal(err)
		}
		if got := <-m.approvals; !reflect.DeepEqual(got, caller) {
			t.Errorf("the mod's approval request got caller %+v, want %+v", got, caller)
		}
	}
}

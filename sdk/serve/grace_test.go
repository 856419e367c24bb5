package serve

import (
	"context"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/pb"
)

// exits records the exit codes a handlers value asks for.
type exits chan int

func (e exits) exit(code int) { e <- code }

func (e exits) got() []int {
	var codes []int
	for {
		select {
		case c := <-e:
			codes = append(codes, c)
		default:
			return codes
		}
	}
}

func TestGracePeriod(t *testing.T) {
	tests := []struct {
		name      string
		grace     int64         // grace_millis in the request
		endsAfter time.Duration // after cancellation; 0: never
		wantExit  bool
	}{
		{"handler ends within grace", 100, 60 * time.Millisecond, false},
		{"handler ignores cancellation", 100, 0, true},
		{"no grace period", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := make(exits, 1)
				hs := newHandlers(slog.New(slog.DiscardHandler), e.exit)
				ctx, cancel := context.WithCancel(t.Context())
				end := hs.begin(ctx, "/modkit.v1.Mod/CallTool", &pb.CallToolRequest{CallId: "c1", GraceMillis: tt.grace})
				if !hs.isRunning("c1") {
					t.Fatal("got c1 not running after begin, want running")
				}
				time.Sleep(time.Hour) // not cancelled: no grace period runs
				synctest.Wait()
				if got := e.got(); len(got) != 0 {
					t.Fatalf("got exits %v before cancellation, want none", got)
				}
				cancel()
				if tt.endsAfter > 0 {
					time.Sleep(tt.endsAfter)
					end()
				}
				time.Sleep(time.Hour)
				synctest.Wait()
				got := e.got()
				if tt.wantExit && (len(got) != 1 || got[0] != protocol.ExitGraceExpired) {
					t.Errorf("got exits %v, want [%d]", got, protocol.ExitGraceExpired)
				}
				if !tt.wantExit && len(got) != 0 {
					t.Errorf("got exits %v, want none", got)
				}
				if tt.endsAfter == 0 {
					end()
				}
				if hs.isRunning("c1") {
					t.Error("got c1 running after its end, want not running")
				}
			})
		})
	}
}

func TestGracePeriodExitsAtItsEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := make(exits, 1)
		hs := newHandlers(slog.New(slog.DiscardHandler), e.exit)
		ctx, cancel := context.WithCancel(t.Context())
		defer hs.begin(ctx, "/modkit.v1.Mod/RunCommand", &pb.RunCommandRequest{CallId: "c2", GraceMillis: 250})()
		cancel()
		time.Sleep(249 * time.Millisecond)
		synctest.Wait()
		if got := e.got(); len(got) != 0 {
			t.Fatalf("got exits %v 1ms before the grace period ends, want none", got)
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if got := e.got(); len(got) != 1 {
			t.Fatalf("got exits %v when the grace period ends, want one", got)
		}
	})
}

func TestRequestsWithoutCallIDAreNotTracked(t *testing.T) {
	hs := newHandlers(slog.New(slog.DiscardHandler), func(int) { t.Error("exit called") })
	end := hs.begin(t.Context(), "/plugin.GRPCController/Shutdown", &pb.DescribeRequest{})
	defer end()
	if hs.isRunning("") {
		t.Error("got a request without a call id tracked, want untracked")
	}
}

func TestWaitForHandlers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hs := newHandlers(slog.New(slog.DiscardHandler), func(int) {})
		endA := hs.begin(t.Context(), "/m", &pb.CallToolRequest{CallId: "a"})
		endB := hs.begin(t.Context(), "/m", &pb.CallToolRequest{CallId: "b", GraceMillis: 10})
		waited := make(chan struct{})
		go func() {
			hs.wait()
			close(waited)
		}()
		for _, end := range []func(){endA, endB} {
			synctest.Wait()
			select {
			case <-waited:
				t.Fatal("wait returned while a handler ran")
			default:
			}
			end()
		}
		synctest.Wait()
		select {
		case <-waited:
		default:
			t.Fatal("wait did not return when the handlers ended")
		}
	})
}

// A tool call on the lane is told of its cancellation by the lane, not by
// its context: the same grace period runs from the first Cancelled.
func TestLaneGracePeriod(t *testing.T) {
	tests := []struct {
		name      string
		grace     int64
		endsAfter time.Duration // after cancellation; 0: never
		wantExit  bool
	}{
		{"handler ends within grace", 100, 60 * time.Millisecond, false},
		{"handler ignores cancellation", 100, 0, true},
		{"no grace period", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := make(exits, 1)
				hs := newHandlers(slog.New(slog.DiscardHandler), e.exit)
				l := hs.beginLane("/modkit.v1.Mod/CallTool", &pb.CallToolRequest{CallId: "c1", GraceMillis: tt.grace})
				if !hs.isRunning("c1") {
					t.Fatal("got c1 not running after beginLane, want running")
				}
				time.Sleep(time.Hour) // not cancelled: no grace period runs
				synctest.Wait()
				if got := e.got(); len(got) != 0 {
					t.Fatalf("got exits %v before cancellation, want none", got)
				}
				l.Cancelled()
				time.Sleep(time.Duration(tt.grace) * time.Millisecond / 2)
				l.Cancelled() // the lane closing after the host cancelled: the period runs on
				if tt.endsAfter > 0 {
					time.Sleep(tt.endsAfter - time.Duration(tt.grace)*time.Millisecond/2)
					l.End()
				}
				time.Sleep(time.Hour)
				synctest.Wait()
				got := e.got()
				if tt.wantExit && (len(got) != 1 || got[0] != protocol.ExitGraceExpired) {
					t.Errorf("got exits %v, want [%d]", got, protocol.ExitGraceExpired)
				}
				if !tt.wantExit && len(got) != 0 {
					t.Errorf("got exits %v, want none", got)
				}
				if tt.endsAfter == 0 {
					l.End()
				}
				l.Cancelled() // after the end: nothing
				time.Sleep(time.Hour)
				synctest.Wait()
				if got := e.got(); len(got) != 0 {
					t.Errorf("got exits %v after the end, want none", got)
				}
				if hs.isRunning("c1") {
					t.Error("got c1 running after its end, want not running")
				}
			})
		})
	}
}

func TestLaneGracePeriodExitsAtItsEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := make(exits, 1)
		hs := newHandlers(slog.New(slog.DiscardHandler), e.exit)
		l := hs.beginLane("/modkit.v1.Mod/CallTool", &pb.CallToolRequest{CallId: "c2", GraceMillis: 250})
		defer l.End()
		l.Cancelled()
		time.Sleep(249 * time.Millisecond)
		synctest.Wait()
		if got := e.got(); len(got) != 0 {
			t.Fatalf("got exits %v 1ms before the grace period ends, want none", got)
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if got := e.got(); len(got) != 1 {
			t.Fatalf("got exits %v when the grace period ends, want one", got)
		}
	})
}

// BenchmarkBegin compares noting a handler through its context's
// cancellation (gRPC) and through the lane's word (a tool call on the
// lane), each under a context as the lane makes per call.
func BenchmarkBegin(b *testing.B) {
	hs := newHandlers(slog.New(slog.DiscardHandler), func(int) { b.Error("exit") })
	req := &pb.CallToolRequest{CallId: "c", GraceMillis: 1000}
	b.Run("context", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ctx, cancel := context.WithCancel(context.Background())
			hs.begin(ctx, "/m", req)()
			cancel()
		}
	})
	b.Run("lane", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, cancel := context.WithCancel(context.Background())
			hs.beginLane("/m", req).End()
			cancel()
		}
	})
}

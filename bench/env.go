package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/modkit/modkit/bench/internal/bare"
	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/sdk"
)

// env holds what the measurements share: the built baselines, the echo mod,
// and the long-running processes each side keeps between rows.
type env struct {
	cfg    config
	log    io.Writer
	tmp    string
	bins   *binaries
	modDir string

	bare    *bare.Process
	mcp     *mcpServer
	host    *host.Host
	hostPid int // the echo mod process of host
}

// newEnv makes the environment of a run, its baselines made by build in
// a directory of their own (buildBinaries, or binaries built before).
func newEnv(ctx context.Context, cfg config, log io.Writer, build func(ctx context.Context, dir string) (*binaries, error)) (*env, error) {
	tmp, err := os.MkdirTemp("", "modkit-bench-")
	if err != nil {
		return nil, err
	}
	e := &env{cfg: cfg, log: log, tmp: tmp}
	fmt.Fprintln(log, "building baselines…")
	if e.bins, err = build(ctx, filepath.Join(tmp, "bin")); err != nil {
		e.close()
		return nil, err
	}
	if e.modDir, err = packageDir(ctx, modPkg); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

// session is the session every modkit call runs in.
func (e *env) session() sdk.Session {
	return sdk.Session{ID: "bench", Workspace: e.tmp}
}

// callTimeout bounds every modkit call, so that a call that never ends fails
// its row instead of stalling the run for the host's default 5 minutes.
const callTimeout = 30 * time.Second

// hostOptions are the options of every host the benchmark loads.
func (e *env) hostOptions() *host.Options {
	return &host.Options{CacheDir: e.cfg.cacheDir, Progress: e.log, CallTimeout: callTimeout, AllowUnconfined: true}
}

// bareProcess returns the long-running bare plugin, starting it once.
func (e *env) bareProcess(ctx context.Context) (*bare.Process, error) {
	if e.bare == nil {
		p, err := startBare(ctx, e.bins)
		if err != nil {
			return nil, err
		}
		e.bare = p
	}
	return e.bare, nil
}

// mcpProcess returns the long-running MCP server, starting it once.
func (e *env) mcpProcess(ctx context.Context) (*mcpServer, error) {
	if e.mcp == nil {
		s, err := startMCP(ctx, e.bins)
		if err != nil {
			return nil, err
		}
		e.mcp = s
	}
	return e.mcp, nil
}

// modHost returns the long-running host with the echo mod loaded, started
// (and built, when its binary is not cached) by a first checked call.
func (e *env) modHost(ctx context.Context) (*host.Host, error) {
	if e.host == nil {
		h, pid, err := e.echoHost(ctx, false)
		if err != nil {
			return nil, err
		}
		e.host, e.hostPid = h, pid
	}
	return e.host, nil
}

// echoHost loads the echo mod in a new host, with confinement off if
// unconfined, checks its echo, and returns the host and the pid of the
// mod's process.
func (e *env) echoHost(ctx context.Context, unconfined bool) (*host.Host, int, error) {
	before, err := children()
	if err != nil {
		return nil, 0, err
	}
	sandbox.Disable(unconfined)
	h, err := host.Load([]string{e.modDir}, e.hostOptions())
	sandbox.Disable(false)
	if err != nil {
		return nil, 0, err
	}
	if err := checkHostEcho(ctx, h, e.session()); err != nil {
		h.Close()
		return nil, 0, err
	}
	pid, err := startedChild(before)
	if err != nil {
		h.Close()
		return nil, 0, err
	}
	return h, pid, nil
}

func (e *env) close() {
	if e.host != nil {
		e.host.Close()
	}
	if e.bare != nil {
		e.bare.Close()
	}
	if e.mcp != nil {
		e.mcp.Close()
	}
	os.RemoveAll(e.tmp)
}

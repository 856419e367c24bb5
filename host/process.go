package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"

	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modproc"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/goplugin"
	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/internal/telemetry"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// mod is one loaded mod and its current process, if any.
type mod struct {
	h   *Host
	dir string
	// installed reports that the mod was installed from a published
	// module (Options.Installed), not the user's own sources.
	installed bool
	// man may be shared with other hosts (decodeManifest): read only.
	man *manifest.Manifest
	availability
	tele modTelemetry
	// ctx is the mod's lifetime: Close cancels it, which stops a build or
	// start under way and ends the host's watchers; then it stops the
	// current process.
	ctx    context.Context
	cancel context.CancelFunc

	starting sync.Mutex // held while building and starting
	mu       sync.Mutex // guards procs
	// procs are the running processes by workspace: a confined process
	// may read only the session workspace it was started for. Unconfined,
	// one process, under "", serves every workspace.
	procs map[string]*proc
	// inProcess, when set, runs the mod in the host's process (see
	// startInProcess).
	inProcess *sdk.Generated
	// early is the look-ahead a call began for the start (lookEarly).
	early early
}

// proc is one running mod process. A crashed proc is replaced, never
// restarted: go-plugin clients cannot be restarted.
type proc struct {
	m         *mod
	client    *plugin.Client
	run       *modproc.Runner
	rpc       modapi.Mod
	tail      *modproc.Tail
	socketDir string
	// workspace is the session workspace the process was started for.
	workspace string
	// confined reports that the host started the process confined.
	confined bool
	// mustReport reports that the process, confined, can tell so
	// (sandbox.Policy.Reportable), and must say it is.
	mustReport bool
	// validates holds the tools whose input the mod checks with a
	// generated validator for the same schema as the loaded manifest's.
	validates map[string]bool
	// laneEnd is the host's end of the call lane until the mod says it
	// serves it; lane is the client over it then, also rpc.
	laneEnd  *os.File
	lane     *protocol.LaneClient
	unwatch  func() bool // stops the kill at Close
	killOnce sync.Once
	stopped  atomic.Pointer[string] // why the host stopped it, if it did
	calls    *modproc.Calls         // the tool calls it runs, for its stderr lines
}

// current returns the mod's running process for the workspace in ctx
// (see withWorkspace), or nil. Without a workspace any running process
// will do.
func (m *mod) current(ctx context.Context) *proc {
	ws, any := m.procKey(ctx)
	m.mu.Lock()
	defer m.mu.Unlock()
	if p := m.procs[ws]; p != nil && !p.hasExited() {
		return p
	}
	if any {
		for _, p := range m.procs {
			if !p.hasExited() {
				return p
			}
		}
	}
	return nil
}

// procKey is the key of the process serving ctx's workspace: its
// workspace when mods are confined, since a confined process may read
// only the one it was started for; "" otherwise. any reports that any
// running process will do.
func (m *mod) procKey(ctx context.Context) (key string, any bool) {
	ws, ok := ctx.Value(workspaceKey{}).(string)
	if !m.h.confining() {
		return "", true
	}
	return ws, !ok || ws == ""
}

// get returns the mod's running process for ctx's workspace, building and
// starting it when there is none or the last one exited.
func (m *mod) get(ctx context.Context) (*proc, error) {
	m.starting.Lock()
	defer m.starting.Unlock()
	if p := m.current(ctx); p != nil {
		return p, nil
	}
	if m.ctx.Err() != nil {
		return nil, ErrClosed
	}
	ws, _ := m.procKey(ctx)
	start := func() (*proc, error) { return m.startFresh(ws) }
	if m.inProcess != nil {
		start = func() (*proc, error) {
			p, err := m.startInProcess()
			if p != nil {
				p.workspace = ws
			}
			return p, err
		}
	}
	p, err := start()
	if err == nil {
		m.mu.Lock()
		if m.ctx.Err() == nil { // else Close is under way and may have passed this mod
			if m.procs == nil {
				m.procs = map[string]*proc{}
			}
			m.procs[ws] = p
			m.mu.Unlock()
			m.watchResources(p)
			return p, nil
		}
		m.mu.Unlock()
		p.kill()
	}
	if m.ctx.Err() != nil {
		return nil, ErrClosed
	}
	return nil, err
}

// getCtx is get for a caller that may give up: when the mod must first be
// built or started, a cancelled ctx returns at once while the start goes on
// for the next caller.
func (m *mod) getCtx(ctx context.Context) (*proc, error) {
	if p := m.current(ctx); p != nil {
		return p, nil
	}
	type got struct {
		p   *proc
		err error
	}
	ch := make(chan got, 1)
	startCtx := context.WithoutCancel(ctx)
	go func() {
		p, err := m.get(startCtx)
		ch <- got{p, err}
	}()
	select {
	case g := <-ch:
		return g.p, g.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// drop forgets p if it is one of the mod's current processes, and kills it.
func (m *mod) drop(p *proc) {
	m.forget(p)
	p.kill()
}

// killNow forgets p, so that no call picks it any more, then kills it at
// once and drops it.
func (m *mod) killNow(p *proc) {
	m.forget(p)
	p.run.KillNow()
	p.kill()
}

// forget removes p from the processes calls pick from.
func (m *mod) forget(p *proc) {
	m.mu.Lock()
	if m.procs[p.workspace] == p {
		delete(m.procs, p.workspace)
	}
	m.mu.Unlock()
}

// take forgets the current processes and returns them, for Close.
func (m *mod) take() []*proc {
	m.mu.Lock()
	defer m.mu.Unlock()
	var ps []*proc
	for _, p := range m.procs {
		ps = append(ps, p)
	}
	m.procs = nil
	return ps
}

// workspaceKey is the context key of a request's session workspace.
type workspaceKey struct{}

// withWorkspace returns ctx naming the session workspace a request works
// in, which picks the mod process that serves it.
func withWorkspace(ctx context.Context, workspace string) context.Context {
	return context.WithValue(ctx, workspaceKey{}, workspace)
}

// stopBecause records why the host is about to stop p, for the calls it
// cuts short.
func (p *proc) stopBecause(reason string) { p.stopped.CompareAndSwap(nil, &reason) }

func (m *mod) logger() *slog.Logger { return m.h.opts.Logger.With("mod", m.man.ID) }

// start starts a process of m running b, confined to workspace when the
// host confines mods.
func (m *mod) start(b *built, workspace string) (*proc, error) {
	id, bin := m.man.ID, b.path
	if err := m.h.unconfinedError(m); err != nil {
		return nil, err
	}
	m.h.sweepOnce.Do(func() { go modproc.SweepSocketDirs() }) // beside the start: it reads the whole temporary directory
	socketDir, err := modproc.NewSocketDir(id)
	if err != nil {
		return nil, fmt.Errorf("start mod %s: %w", id, err)
	}
	log := m.logger()
	cmd := exec.Command(bin)
	maxMsg := maxMsgBytes(m.h)
	// The mod dies with the host, even when the host is SIGKILLed; the
	// signal follows the thread that forked, so start from a locked one.
	cmd.SysProcAttr = modproc.SysProcAttr()
	var policy *sandbox.Policy
	if m.h.confining() {
		policy = m.policy(bin, socketDir, workspace)
		policy.ABI = m.h.enforced.ABI
		policy.Seccomp = m.h.enforced.Seccomp == nil
		policy.CheckHosts = m.h.enforced.HostCheck == nil
	}
	// Tool calls go over a socketpair the process inherits, where there
	// is one; the rest over gRPC.
	var laneEnd, laneChild *os.File
	if !m.h.noLane {
		laneEnd, laneChild, err = protocol.NewLanePair()
	}
	if err != nil {
		os.RemoveAll(socketDir)
		return nil, fmt.Errorf("start mod %s: %w", id, err)
	}
	var laneEnv []string
	if laneChild != nil {
		cmd.ExtraFiles = []*os.File{laneChild}
		laneEnv = []string{protocol.EnvCallLaneFD + "=3"} // the first of ExtraFiles
	}
	run := modproc.NewRunner(cmd, b.sum, policy)
	if b.fileSum != nil {
		run.SumFrom(b.fileSum)
	}
	tail := &modproc.Tail{}
	calls := &modproc.Calls{}
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  goplugin.Handshake,
		VersionedPlugins: goplugin.HostPluginSets(maxMsg),
		RunnerFunc: func(_ hclog.Logger, spec *exec.Cmd, _ string) (runner.Runner, error) {
			// The socket goes in the host's own directory, which the host
			// removes when the process ends and sweeps when a host died.
			cmd.Env = append(append(m.modEnv(spec.Env, socketDir), protocol.EnvLogLevel+"="+levelName(log),
				protocol.EnvMaxMessageBytes+"="+strconv.Itoa(maxMsg)), laneEnv...)
			return run, nil
		},
		UnixSocketConfig: &plugin.UnixSocketConfig{TempDir: socketDir},
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		AutoMTLS:         protocol.AutoMTLS,
		Logger:           goplugin.HCLogger(log),
		Stderr:           tail,
		SyncStdout:       modproc.NewLineLogger(log, "stdout", calls),
		SyncStderr:       modproc.NewLineLogger(log, "stderr", calls),
		StartTimeout:     m.h.opts.HandshakeTimeout,
		GRPCDialOptions: append(append(protocol.DialOptions(maxMsg), protocol.PeerDialOptions(run.PID)...),
			telemetry.ModDialOptions(id)...),
	})
	p := &proc{m: m, client: client, run: run, tail: tail, socketDir: socketDir, workspace: workspace, confined: run.Confined(), calls: calls, laneEnd: laneEnd,
		mustReport: policy != nil && policy.Reportable()}
	// Close kills a process that is still starting; a started one it stops
	// gracefully, as the mod's current process.
	p.unwatch = context.AfterFunc(m.ctx, func() {
		p.stopBecause("the host closed")
		run.KillNow()
	})
	protocol.WarmStart() // while the process starts
	var startErr error
	modproc.OnStarterThread(func() { _, startErr = client.Start() })
	if laneChild != nil {
		laneChild.Close() // the process has its own copy
	}
	if startErr != nil {
		p.kill()
		err := p.startError(bin, startErr)
		if err == ErrClosed {
			return nil, err
		}
		return nil, &notStarted{err}
	}
	go p.watch()
	rpcClient, err := client.Client()
	if err != nil {
		p.kill()
		return nil, fmt.Errorf("start mod %s: %w", id, err)
	}
	raw, err := rpcClient.Dispense(protocol.PluginName)
	if err != nil {
		p.kill()
		return nil, fmt.Errorf("start mod %s: %w", id, err)
	}
	rpc, ok := raw.(modapi.Mod)
	if !ok {
		p.kill()
		return nil, fmt.Errorf("start mod %s: plugin is %T, want a mod client", id, raw)
	}
	p.rpc = rpc
	if err := p.describeAndActivate(bin); err != nil {
		return nil, err
	}
	p.unwatch()
	log.Debug("mod started", "pid", client.ID(), "protocol", client.NegotiatedVersion(), "confined", p.confined, "workspace", workspace, "call_lane", p.lane != nil)
	return p, nil
}

// describeAndActivate checks the manifest p's mod serves against the loaded
// one and activates the mod, each within its timeout. On failure it kills
// p. bin is the binary p runs, "" for a mod in the host's process.
func (p *proc) describeAndActivate(bin string) error {
	m, id, log := p.m, p.m.man.ID, p.m.logger()
	desc, err := bounded(m.ctx, p, "start mod "+id+": describe", "", m.h.opts.HandshakeTimeout, func(ctx context.Context) (*modapi.DescribeResponse, error) {
		return p.rpc.Describe(ctx, &modapi.DescribeRequest{})
	})
	if err != nil {
		p.kill()
		return err
	}
	if p.mustReport && !desc.Confined {
		p.kill()
		return fmt.Errorf("start mod %s: the host confined its process, but the mod does not report being confined (%s)", id, bin)
	}
	got, err := manifest.Decode(desc.Manifest)
	if err != nil {
		p.kill()
		return fmt.Errorf("start mod %s: the binary's manifest: %w", id, err)
	} else if got.ID != id {
		p.kill()
		return fmt.Errorf("start mod %s: %w: it serves mod %s (%s)", id, errBadBinary, got.ID, bin)
	} else if got.SourceHash != m.man.SourceHash {
		p.kill()
		if err := freshness.CheckIn(m.h.stampRoot(), m.given, id, m.man.SourceHash); err != nil || bin == "" {
			return m.unavailable("its generated files are out of date", fmt.Errorf("mod %s (%s): %w; run go generate in %s", id, m.given, freshness.ErrStale, m.given))
		}
		// The sources are those of the loaded manifest: the cached
		// binary was built from others.
		return fmt.Errorf("start mod %s: %w: it was built from other sources (source hash %s, not %s) (%s)", id, errBadBinary, got.SourceHash, m.man.SourceHash, bin)
	}
	p.openLane(desc.CallLane, desc.LaneSteps && !m.h.noLaneSteps, maxMsgBytes(m.h))
	if !sameTools(got, m.man) {
		log.Warn("the binary's tools differ from mod.manifest.json: run go generate", "dir", m.dir)
	} else {
		// Same schemas: the generated validators enforce what the host
		// would check.
		p.validates = make(map[string]bool)
		for _, name := range desc.ValidatedTools {
			p.validates[name] = true
		}
	}
	act, err := bounded(m.ctx, p, "start mod "+id+": activate", "", m.h.opts.ActivateTimeout, func(ctx context.Context) (*modapi.ActivateResponse, error) {
		return p.rpc.Activate(ctx, &modapi.ActivateRequest{Today: m.h.opts.Today()})
	})
	if err != nil {
		p.kill()
		return err
	}
	if act.Error != "" {
		p.kill()
		return fmt.Errorf("start mod %s: activate: %s", id, act.Error)
	}
	return nil
}

// startError explains why go-plugin could not start the process: a
// checksum mismatch, an exit before the handshake with the process's exit
// status and last stderr lines, or a handshake that failed or never came.
func (p *proc) startError(bin string, err error) error {
	id := p.m.man.ID
	if errors.Is(err, plugin.ErrChecksumsDoNotMatch) {
		return fmt.Errorf("start mod %s: %w: its checksum does not match the one recorded when it was built (%s)", id, errBadBinary, bin)
	}
	if p.run.Exited() == nil { // the process never started
		return fmt.Errorf("start mod %s: %w", id, err)
	}
	// go-plugin has killed the process, if it was still running.
	<-p.run.Exited()
	p.run.WaitDrained()
	if p.m.ctx.Err() != nil {
		return ErrClosed
	}
	if err := incompatibleProtocol(id, bin, err); err != nil {
		return err
	}
	var msg string
	switch ownExit := p.run.ExitCode() >= 0 || !p.run.KilledByHost(); {
	case ownExit:
		msg = "exited before the handshake (" + p.run.ExitStatus() + ")"
	case strings.Contains(err.Error(), "timeout while waiting"):
		msg = "no handshake within " + p.m.h.opts.HandshakeTimeout.String() + " (Options.HandshakeTimeout)"
	default:
		msg = "handshake failed: " + firstLine(err.Error())
	}
	if lines := p.tail.Last(); len(lines) > 0 {
		msg += "; its stderr ends:\n  " + strings.Join(lines, "\n  ")
	}
	return fmt.Errorf("start mod %s: %s", id, msg)
}

// levelName is the lowest level l keeps, for the mod's own filter.
func levelName(l *slog.Logger) string {
	ctx := context.Background()
	switch {
	case l.Enabled(ctx, slog.LevelDebug):
		return "debug"
	case l.Enabled(ctx, slog.LevelInfo):
		return "info"
	case l.Enabled(ctx, slog.LevelWarn):
		return "warn"
	default:
		return "error"
	}
}

func sameTools(a, b *manifest.Manifest) bool {
	if len(a.Tools) != len(b.Tools) {
		return false
	}
	for i := range a.Tools {
		if a.Tools[i].Name != b.Tools[i].Name || !bytes.Equal(a.Tools[i].InputSchema, b.Tools[i].InputSchema) {
			return false
		}
	}
	return true
}

// hasExited reports whether the process has exited.
func (p *proc) hasExited() bool {
	if p.run == nil { // in the host's process
		return false
	}
	select {
	case <-p.run.Exited():
		return true
	default:
		return false
	}
}

// watch waits for the process to exit, logs how, and cleans up after it.
func (p *proc) watch() {
	<-p.run.Exited()
	log := p.m.logger()
	switch {
	case p.stopped.Load() != nil:
		log.Debug("mod process exited", "status", p.run.ExitStatus(), "why", *p.stopped.Load())
	case p.run.ExitCode() == protocol.ExitGraceExpired:
		telemetry.ModCrashed(p.m.man.ID)
		log.Warn("a cancelled handler ignored cancellation past the grace period; the mod exited", "grace", p.m.h.opts.GracePeriod.String())
	default:
		log.Error("mod process exited", "status", p.run.ExitStatus())
		telemetry.ModCrashed(p.m.man.ID)
	}
	p.m.drop(p)
}

// killWait bounds go-plugin's shutdown of a process that does not answer
// it; then the host kills the process.
const killWait = 3 * time.Second

// kill stops the process, gracefully when it answers, and removes its
// socket directory. It returns within a bounded time whatever the mod does.
func (p *proc) kill() {
	if p.run == nil { // in the host's process: nothing to stop
		return
	}
	p.killOnce.Do(func() {
		done := make(chan struct{})
		go func() {
			p.client.Kill()
			close(done)
		}()
		t := time.NewTimer(killWait)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
			p.run.KillNow()
			<-done // the process is gone and its pipes close within modproc's drain wait
		}
		if p.lane != nil {
			p.lane.Close()
		}
		if p.laneEnd != nil {
			p.laneEnd.Close()
		}
		os.RemoveAll(p.socketDir)
		p.unwatch()
	})
}

// errTimedOut is the cause of an operation's context when its timeout
// fired.
var errTimedOut = errors.New("timed out")

// bounded runs one request of p, named by what, bounded by the caller's ctx
// and by timeout. The timeout is the host's own: no deadline travels to the
// mod, whose handler sees its context cancelled. When the request is cut
// short, the handler of the call id (if any) is reaped after the grace
// period. Errors: the caller's ctx.Err() when it gave up, else one naming
// what and saying why (a timeout, a crash).
func bounded[R any](ctx context.Context, p *proc, what, id string, timeout time.Duration, rpc func(context.Context) (R, error)) (R, error) {
	opCtx, cancel := context.WithCancelCause(ctx)
	timer := time.AfterFunc(timeout, func() { cancel(errTimedOut) })
	defer func() {
		timer.Stop()
		cancel(nil)
	}()
	resp, err := rpc(opCtx)
	if err == nil {
		return resp, nil
	}
	var zero R
	switch {
	case ctx.Err() != nil:
		if id != "" {
			p.reapAfterGrace(id)
		}
		return zero, ctx.Err()
	case context.Cause(opCtx) == errTimedOut:
		if id != "" {
			p.reapAfterGrace(id)
		}
		return zero, fmt.Errorf("%s: timed out after %s", what, timeout)
	}
	return zero, fmt.Errorf("%s: %s", what, p.transportError(err))
}

// reapMargin is how much longer than the grace period the host waits
// before it checks that a cancelled handler has ended: the mod ends itself
// at the grace period, and the host's check is a backstop.
const reapMargin = time.Second

// reapAfterGrace kills the process when the handler of the cancelled call
// id is still running past the grace period. The call has already returned.
// Close ends the wait.
func (p *proc) reapAfterGrace(id string) {
	if p.run == nil { // in the host's process: nothing to reap
		return
	}
	grace := p.m.h.opts.GracePeriod
	go func() {
		t := time.NewTimer(grace + reapMargin)
		defer t.Stop()
		select {
		case <-t.C:
		case <-p.run.Exited():
			return
		case <-p.m.ctx.Done():
			return
		}
		ctx, cancel := context.WithTimeout(p.m.ctx, p.m.h.opts.HandshakeTimeout)
		resp, err := p.rpc.CallRunning(ctx, &modapi.CallRunningRequest{CallID: id})
		cancel()
		if p.hasExited() || p.m.ctx.Err() != nil {
			return
		}
		log := p.m.logger()
		switch {
		case err == nil && !resp.Running:
			log.Debug("cancelled handler ended within the grace period", "call", id)
			return
		case err != nil:
			log.Warn("mod does not say whether a cancelled handler still runs; killing the mod", "call", id, "error", err.Error())
			p.stopBecause("it did not answer after a call was cancelled")
		default:
			log.Warn("handler ignored cancellation past the grace period; killing the mod", "call", id, "grace", grace.String())
			p.stopBecause("a cancelled handler ran past the " + grace.String() + " grace period")
		}
		p.m.killNow(p)
	}()
}

// crashWait bounds how long the host waits for a process whose connection
// broke to exit, before it gives up on it.
const crashWait = 5 * time.Second

// transportError explains an RPC error that is not the caller's
// cancellation. A broken connection means the process exited or is about
// to: the process's exit says how, so a crash names the mod and its exit
// status, signal or panic.
func (p *proc) transportError(err error) string {
	if msg, ok := overLimit(err, p.m.man.ID); ok {
		return msg
	}
	if reason := p.stopped.Load(); reason != nil {
		return "mod " + p.m.man.ID + " was stopped: " + *reason
	}
	// An error that did not cross the wire (a mod in the host's process)
	// reads as the mod's own words.
	msg, broken := err.Error(), true
	if te := modapi.AsTransport(err); te != nil {
		msg, broken = te.Msg, te.Kind == modapi.TransportBroken
	}
	if !broken || p.run == nil { // in the host's process: no exit to wait for
		return "mod " + p.m.man.ID + ": " + msg
	}
	t := time.NewTimer(crashWait)
	defer t.Stop()
	select {
	case <-p.run.Exited():
		return p.exitText()
	case <-t.C:
	}
	p.stopBecause("its connection broke: " + msg)
	p.m.killNow(p)
	return "mod " + p.m.man.ID + " stopped answering: " + msg
}

// exitText says why the exited process ended.
func (p *proc) exitText() string {
	id := p.m.man.ID
	if reason := p.stopped.Load(); reason != nil {
		return "mod " + id + " was stopped: " + *reason
	}
	if p.run.ExitCode() == protocol.ExitGraceExpired {
		return "mod " + id + " was stopped: a cancelled handler ran past the " + p.m.h.opts.GracePeriod.String() + " grace period"
	}
	p.run.WaitDrained()
	if line := p.tail.PanicLine(); line != "" {
		return "mod " + id + " crashed: " + line
	}
	return "mod " + id + " crashed: " + p.run.ExitStatus()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// openLane makes p's tool calls go over its call lane when the mod serves
// it, and their steps (hooks, input checks, approval rules) when it serves
// those too; otherwise, or when there is none, they stay on gRPC.
func (p *proc) openLane(served, steps bool, maxMsg int) {
	f := p.laneEnd
	p.laneEnd = nil
	g, ok := p.rpc.(*protocol.GRPCClient)
	if f == nil || !served || !ok {
		if f != nil {
			f.Close()
		}
		return
	}
	conn, err := protocol.LaneConn(f)
	if err != nil {
		p.m.logger().Warn("tool calls go over gRPC", "error", err.Error())
		return
	}
	id := p.m.man.ID
	p.lane = protocol.NewLaneClient(g, conn, protocol.LaneOptions{
		MaxMessageBytes: maxMsg,
		Steps:           steps,
		Trace:           telemetry.ModCallTrace,
		Spans:           telemetry.ModSpans(id),
		// Before its calls fail: the next call gets a fresh process.
		Violation: func(err error) {
			p.stopBecause("it broke the call lane's protocol: " + errors.Unwrap(err).Error())
			p.m.killNow(p)
		},
	})
	p.rpc = p.lane
}

// maxMsgBytes is the largest message between h and its mods, either way.
func maxMsgBytes(h *Host) int {
	return limits.MessageBytes(h.opts.MaxRequestBytes, h.opts.MaxResultBytes)
}

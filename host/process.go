package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// mod is one loaded mod and its current process, if any.
type mod struct {
	h   *Host
	dir string
	man *manifest.Manifest

	mu   sync.Mutex // guards proc; held while building and starting
	proc *proc
	// inProcess, when set, runs the mod in the host's process (see
	// startInProcess).
	inProcess *sdk.Generated
}

// proc is one running mod process. A crashed proc is replaced, never
// restarted: go-plugin clients cannot be restarted.
type proc struct {
	m         *mod
	client    *plugin.Client
	rpc       modapi.Mod
	tail      *stderrTail
	exit      *exitLogger
	socketDir string
	// validates holds the tools whose input the mod checks with a
	// generated validator for the same schema as the loaded manifest's.
	validates map[string]bool
	killOnce  sync.Once
	stopped   atomic.Pointer[string] // why the host stopped it, if it did
}

// get returns the mod's running process, building and starting it when
// there is none or the last one exited.
func (m *mod) get() (*proc, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.h.isClosed() {
		return nil, ErrClosed
	}
	if p := m.proc; p != nil {
		if !p.gone() {
			return p, nil
		}
		p.kill()
		m.proc = nil
	}
	if m.inProcess != nil {
		p, err := m.startInProcess()
		m.proc = p
		return p, err
	}
	bin, sum, err := m.binary()
	if err != nil {
		return nil, err
	}
	p, err := m.start(bin, sum)
	if err != nil {
		return nil, err
	}
	m.proc = p
	return p, nil
}

// getCtx is get for a caller that may give up: when the mod must first be
// built or started, a cancelled ctx returns at once while the start goes on
// for the next caller.
func (m *mod) getCtx(ctx context.Context) (*proc, error) {
	m.mu.Lock()
	p := m.proc
	m.mu.Unlock()
	if p != nil && !p.gone() {
		return p, nil
	}
	type got struct {
		p   *proc
		err error
	}
	ch := make(chan got, 1)
	go func() {
		p, err := m.get()
		ch <- got{p, err}
	}()
	select {
	case g := <-ch:
		return g.p, g.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// drop forgets p if it is the mod's current process, and kills it.
func (m *mod) drop(p *proc) {
	m.mu.Lock()
	if m.proc == p {
		m.proc = nil
	}
	m.mu.Unlock()
	p.kill()
}

// stop kills the current process and waits for it to exit.
func (m *mod) stop() {
	m.mu.Lock()
	p := m.proc
	m.proc = nil
	m.mu.Unlock()
	if p != nil {
		p.stopBecause("the host closed")
		p.kill()
	}
}

// stopBecause records why the host is about to stop p, for the calls it
// cuts short.
func (p *proc) stopBecause(reason string) { p.stopped.CompareAndSwap(nil, &reason) }

func (m *mod) logger() *slog.Logger { return m.h.opts.Logger.With("mod", m.man.ID) }

func (m *mod) start(bin string, sum []byte) (*proc, error) {
	id := m.man.ID
	socketDir, err := os.MkdirTemp("", "modkit-"+id+"-")
	if err != nil {
		return nil, fmt.Errorf("start mod %s: %w", id, err)
	}
	log := m.logger()
	cmd := exec.Command(bin)
	cmd.Env = []string{plugin.EnvUnixSocketDir + "=" + socketDir, protocol.EnvLogLevel + "=" + levelName(log)}
	// The mod dies with the host, even when the host is SIGKILLed; the
	// signal follows the thread that forked, so start from a locked one.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	tail := &stderrTail{}
	exit := &exitLogger{Logger: protocol.HCLogger(log)}
	var dialOpts []grpc.DialOption
	if max := m.h.opts.MaxResultBytes + 64<<10; max > 4<<20 {
		dialOpts = append(dialOpts, grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(max)))
	}
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  protocol.Handshake,
		VersionedPlugins: protocol.PluginSets(nil),
		Cmd:              cmd,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		SecureConfig:     &plugin.SecureConfig{Checksum: sum, Hash: sha256.New()},
		AutoMTLS:         true,
		Logger:           exit,
		Stderr:           tail,
		SyncStdout:       &lineLogger{log: log, stream: "stdout"},
		SyncStderr:       &lineLogger{log: log, stream: "stderr"},
		StartTimeout:     30 * time.Second,
		GRPCDialOptions:  dialOpts,
	})
	p := &proc{m: m, client: client, tail: tail, exit: exit, socketDir: socketDir}
	var startErr error
	onStarterThread(func() { _, startErr = client.Start() })
	if startErr != nil {
		p.kill()
		if errors.Is(startErr, plugin.ErrChecksumsDoNotMatch) {
			forgetBinary(bin)
			return nil, fmt.Errorf("start mod %s: binary checksum does not match the one recorded when it was built (%s); it was removed and will be rebuilt on the next call", id, bin)
		}
		msg := firstLine(startErr.Error())
		if panicLine := tail.panicLine(); panicLine != "" {
			msg += ": " + panicLine
		}
		return nil, fmt.Errorf("start mod %s: handshake failed: %s", id, msg)
	}
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
	if err := p.describeAndActivate(); err != nil {
		return nil, err
	}
	log.Debug("mod started", "pid", client.ID(), "protocol", client.NegotiatedVersion())
	return p, nil
}

// describeAndActivate checks the manifest p's mod serves against the loaded
// one and activates the mod. On failure it kills p.
func (p *proc) describeAndActivate() error {
	m, id, log, rpc := p.m, p.m.man.ID, p.m.logger(), p.rpc
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	desc, err := rpc.Describe(ctx, &modapi.DescribeRequest{})
	if err != nil {
		p.kill()
		return fmt.Errorf("start mod %s: describe: %s", id, p.transportError(err))
	}
	if got, err := manifest.Decode(desc.Manifest); err != nil {
		p.kill()
		return fmt.Errorf("start mod %s: the binary's manifest: %w", id, err)
	} else if got.ID != id {
		p.kill()
		return fmt.Errorf("start mod %s: the binary serves mod %s", id, got.ID)
	} else if !sameTools(got, m.man) {
		log.Warn("the binary's tools differ from mod.manifest.json: run go generate", "dir", m.dir)
	} else {
		// Same schemas: the generated validators enforce what the host
		// would check.
		p.validates = make(map[string]bool)
		for _, name := range desc.ValidatedTools {
			p.validates[name] = true
		}
	}
	act, err := rpc.Activate(ctx, &modapi.ActivateRequest{Today: m.h.opts.Today()})
	if err != nil {
		p.kill()
		return fmt.Errorf("start mod %s: activate: %s", id, p.transportError(err))
	}
	if act.Error != "" {
		p.kill()
		return fmt.Errorf("start mod %s: activate: %s", id, act.Error)
	}
	return nil
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

// kill stops the process (gracefully, then by force after two seconds) and
// removes its socket directory.
func (p *proc) kill() {
	p.killOnce.Do(func() {
		if p.client != nil {
			p.client.Kill()
		}
		os.RemoveAll(p.socketDir)
	})
}

// reapAfterGrace kills the process when the cancelled call's handler is
// still running after the grace period. The call has already returned.
func (p *proc) reapAfterGrace(callID string) {
	grace := p.m.h.opts.GracePeriod
	go func() {
		time.Sleep(grace)
		if p.gone() {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		resp, err := p.rpc.CallRunning(ctx, &modapi.CallRunningRequest{CallID: callID})
		if err != nil || !resp.Running {
			return
		}
		p.m.logger().Warn("handler ignored cancellation past the grace period; killing the mod", "call", callID, "grace", grace.String())
		p.stopBecause("a cancelled handler ran past the " + grace.String() + " grace period")
		p.m.drop(p)
	}()
}

// exited waits up to wait for the process to be seen as exited.
func (p *proc) exited(wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for {
		if p.gone() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// transportError explains an RPC error that is not the caller's
// cancellation: a crash names the mod and, when it panicked, the panic.
func (p *proc) transportError(err error) string {
	if reason := p.stopped.Load(); reason != nil {
		return "mod " + p.m.man.ID + " was stopped: " + *reason
	}
	if p.exited(300 * time.Millisecond) {
		p.m.drop(p)
		return p.crashText()
	}
	return err.Error()
}

func (p *proc) crashText() string {
	msg := "mod " + p.m.man.ID + " crashed"
	if line := p.tail.panicLine(); line != "" {
		return msg + ": " + line
	}
	if status := p.exit.status(); status != "" {
		return msg + ": " + status
	}
	return msg + ": process exited"
}

// exitLogger notes how the process exited, which go-plugin logs and does
// not otherwise tell.
type exitLogger struct {
	hclog.Logger
	mu  sync.Mutex
	why string
}

func (l *exitLogger) note(msg string, args []any) {
	if msg != "plugin process exited" {
		return
	}
	for i := 0; i+1 < len(args); i += 2 {
		if args[i] == "error" {
			l.mu.Lock()
			l.why = fmt.Sprint(args[i+1])
			l.mu.Unlock()
		}
	}
}

func (l *exitLogger) Error(msg string, args ...any) {
	l.note(msg, args)
	l.Logger.Error(msg, args...)
}

func (l *exitLogger) status() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.why
}

// idleStarters holds goroutines locked to their OS threads, waiting for a
// start. Linux ties Pdeathsig to the thread that forked the child, not to
// the process (golang/go#27505): a mod started from a thread that later
// exits would be killed with it. So mods are started only from threads that
// live as long as the host; one per concurrent start, reused.
var idleStarters = make(chan chan func(), 64)

// onStarterThread runs f on a starter thread.
func onStarterThread(f func()) {
	var ch chan func()
	select {
	case ch = <-idleStarters:
	default:
		ch = make(chan func())
		go func() {
			runtime.LockOSThread() // never unlocked: the thread must live on
			for f := range ch {
				f()
				select {
				case idleStarters <- ch:
				default: // enough idle starters: this one just waits
				}
			}
		}()
	}
	done := make(chan struct{})
	ch <- func() {
		defer close(done)
		f()
	}
	<-done
}

// stderrTail receives the mod's raw stderr lines and keeps the panic line,
// if any, for crash messages.
type stderrTail struct {
	mu    sync.Mutex
	panic string
	buf   []byte
}

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	for {
		i := bytes.IndexByte(t.buf, '\n')
		if i < 0 {
			break
		}
		line := string(t.buf[:i])
		t.buf = t.buf[i+1:]
		if t.panic == "" && (strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")) {
			t.panic = line
		}
	}
	if len(t.buf) > 64<<10 {
		t.buf = t.buf[:0]
	}
	return len(p), nil
}

func (t *stderrTail) panicLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.panic
}

// lineLogger logs what a mod writes to its os.Stdout or os.Stderr after
// serving started, one record per line.
type lineLogger struct {
	log    *slog.Logger
	stream string
	mu     sync.Mutex
	buf    []byte
}

func (l *lineLogger) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.log.Info(string(l.buf[:i]), "stream", l.stream)
		l.buf = l.buf[i+1:]
	}
	if len(l.buf) > 64<<10 {
		l.log.Info(string(l.buf), "stream", l.stream)
		l.buf = l.buf[:0]
	}
	return len(p), nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

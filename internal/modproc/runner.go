package modproc

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"

	"github.com/modkit/modkit/internal/modbuild"
	"github.com/modkit/modkit/internal/sandbox"
)

// drainWait bounds how long, after a mod process exited, the host waits for
// the last of its stdout and stderr (a panic's message, say) before closing
// the pipes: a child the mod left behind may hold them open.
const drainWait = 2 * time.Second

// Runner starts and watches one mod process for go-plugin (through
// ClientConfig.RunnerFunc). Its own Wait on the process is how the host learns
// that a mod exited and how: the exact exit status or signal, at once,
// without polling and without reading go-plugin's logs.
type Runner struct {
	cmd *exec.Cmd
	sum []byte // the binary's recorded SHA-256, checked before the start
	// fileSum takes the binary's SHA-256 (modbuild.FileSum, or its
	// result taken ahead).
	fileSum func() ([]byte, error)
	// policy, when set, confines the process from its first instruction.
	policy *sandbox.Policy

	stdout, stderr *os.File // read ends, read by go-plugin
	drained        chan struct{}
	drainOnce      sync.Once

	exited  chan struct{} // closed when the process has exited
	exitErr error         // Wait's error; set before exited closes

	mu     sync.Mutex
	pid    int  // 0 until the process started
	killed bool // the host killed the process
}

var _ runner.Runner = (*Runner)(nil)

// NewRunner returns the runner of cmd, whose binary's recorded SHA-256 is
// sum (nil for the running program's own binary, which is not checked);
// policy, when not nil, confines the process from its first instruction.
func NewRunner(cmd *exec.Cmd, sum []byte, policy *sandbox.Policy) *Runner {
	return &Runner{cmd: cmd, sum: sum, policy: policy, fileSum: func() ([]byte, error) { return modbuild.FileSum(cmd.Path) }}
}

// SumFrom has Start compare the recorded checksum with the one fileSum
// returns, which reads cmd.Path and may have begun before the start
// (modbuild.SumAhead), instead of reading the binary itself.
func (r *Runner) SumFrom(fileSum func() ([]byte, error)) { r.fileSum = fileSum }

// Confined reports whether the runner confines its process.
func (r *Runner) Confined() bool { return r.policy != nil }

// Exited is closed once the process has exited; nil before it started.
func (r *Runner) Exited() <-chan struct{} {
	if r.exited == nil {
		return nil
	}
	return r.exited
}

// PID is the process id, 0 before the start.
func (r *Runner) PID() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pid
}

// Start checks the binary's checksum, as go-plugin's SecureConfig does, and
// starts the process.
func (r *Runner) Start(context.Context) error {
	if r.sum != nil {
		if sum, err := r.fileSum(); err != nil {
			return err
		} else if string(sum) != string(r.sum) {
			return plugin.ErrChecksumsDoNotMatch
		}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return err
	}
	r.cmd.Stdout, r.cmd.Stderr = outW, errW
	r.mu.Lock() // a kill waits for the start
	defer r.mu.Unlock()
	exited := make(chan struct{})
	if r.policy != nil {
		err = sandbox.Start(r.policy, r.cmd.Start, exited)
	} else {
		err = r.cmd.Start()
	}
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return err
	}
	r.pid = r.cmd.Process.Pid
	r.stdout, r.stderr = outR, errR
	r.drained = make(chan struct{})
	r.exited = exited
	go r.wait()
	return nil
}

// wait reaps the process, then closes the pipes once they are drained, or
// after drainWait when something else holds them open.
func (r *Runner) wait() {
	r.exitErr = r.cmd.Wait()
	close(r.exited)
	t := time.NewTimer(drainWait)
	defer t.Stop()
	select {
	case <-r.drained:
	case <-t.C:
	}
	r.stdout.Close()
	r.stderr.Close()
}

// Wait returns the process's exit error once it has exited.
func (r *Runner) Wait(context.Context) error {
	<-r.exited
	return r.exitErr
}

// KillNow ends the process at once.
func (r *Runner) KillNow() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pid == 0 || r.killed {
		return
	}
	select {
	case <-r.exited:
		return
	default:
	}
	r.killed = true
	r.cmd.Process.Kill()
}

// KilledByHost reports whether the host killed the process.
func (r *Runner) KilledByHost() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.killed
}

// Kill implements runner.Runner.
func (r *Runner) Kill(context.Context) error {
	r.KillNow()
	return nil
}

// Stdout is the pipe of the handshake.
func (r *Runner) Stdout() io.ReadCloser { return r.stdout }

// Stderr is the mod's raw stderr; reading it to its end marks it drained.
func (r *Runner) Stderr() io.ReadCloser { return &drainReader{File: r.stderr, r: r} }

// Name is the binary's path.
func (r *Runner) Name() string { return r.cmd.Path }

// ID is the process id, "" before the start.
func (r *Runner) ID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pid == 0 {
		return ""
	}
	return strconv.Itoa(r.pid)
}

// Diagnose adds nothing: the host reports a failed start itself.
func (r *Runner) Diagnose(context.Context) string { return "" }

// PluginToHost implements runner.AddrTranslator: host and mod share a
// filesystem.
func (r *Runner) PluginToHost(network, addr string) (string, string, error) {
	return network, addr, nil
}

// HostToPlugin implements runner.AddrTranslator.
func (r *Runner) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}

// drainReader marks the stderr pipe drained when a read ends it.
type drainReader struct {
	*os.File
	r *Runner
}

func (d *drainReader) Read(p []byte) (int, error) {
	n, err := d.File.Read(p)
	if err != nil {
		d.r.drainOnce.Do(func() { close(d.r.drained) })
	}
	return n, err
}

// ExitStatus describes how the process ended: "exit status 3", "signal:
// killed".
func (r *Runner) ExitStatus() string {
	if r.exitErr == nil {
		return "exit status 0"
	}
	return r.exitErr.Error()
}

// ExitCode is the process's exit status, or -1 when a signal ended it.
func (r *Runner) ExitCode() int {
	var ee *exec.ExitError
	if errors.As(r.exitErr, &ee) {
		return ee.ExitCode()
	}
	if r.exitErr == nil {
		return 0
	}
	return -1
}

// WaitDrained waits, at most drainWait, for the end of the mod's stderr,
// so that its last words are read.
func (r *Runner) WaitDrained() {
	t := time.NewTimer(drainWait)
	defer t.Stop()
	select {
	case <-r.drained:
	case <-t.C:
	}
}

package host

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

	"github.com/modkit/modkit/internal/sandbox"
)

// drainWait bounds how long, after a mod process exited, the host waits for
// the last of its stdout and stderr (a panic's message, say) before closing
// the pipes: a child the mod left behind may hold them open.
const drainWait = 2 * time.Second

// modRunner starts and watches one mod process for go-plugin (through
// ClientConfig.RunnerFunc). Its own Wait on the process is how the host learns
// that a mod exited and how: the exact exit status or signal, at once,
// without polling and without reading go-plugin's logs.
type modRunner struct {
	cmd *exec.Cmd
	sum []byte // the binary's recorded SHA-256, checked before the start
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

var _ runner.Runner = (*modRunner)(nil)

// Start checks the binary's checksum, as go-plugin's SecureConfig does, and
// starts the process.
func (r *modRunner) Start(context.Context) error {
	if sum, err := fileSum(r.cmd.Path); err != nil {
		return err
	} else if string(sum) != string(r.sum) {
		return plugin.ErrChecksumsDoNotMatch
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
func (r *modRunner) wait() {
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
func (r *modRunner) Wait(context.Context) error {
	<-r.exited
	return r.exitErr
}

// kill ends the process at once.
func (r *modRunner) kill() {
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

// processID is the pid of the started process; 0 before it starts.
func (r *modRunner) processID() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pid
}

// killedByHost reports whether the host killed the process.
func (r *modRunner) killedByHost() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.killed
}

// Kill implements runner.Runner.
func (r *modRunner) Kill(context.Context) error {
	r.kill()
	return nil
}

// Stdout is the pipe of the handshake.
func (r *modRunner) Stdout() io.ReadCloser { return r.stdout }

// Stderr is the mod's raw stderr; reading it to its end marks it drained.
func (r *modRunner) Stderr() io.ReadCloser { return &drainReader{File: r.stderr, r: r} }

// Name is the binary's path.
func (r *modRunner) Name() string { return r.cmd.Path }

// ID is the process id, "" before the start.
func (r *modRunner) ID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pid == 0 {
		return ""
	}
	return strconv.Itoa(r.pid)
}

// Diagnose adds nothing: the host reports a failed start itself.
func (r *modRunner) Diagnose(context.Context) string { return "" }

// PluginToHost implements runner.AddrTranslator: host and mod share a
// filesystem.
func (r *modRunner) PluginToHost(network, addr string) (string, string, error) {
	return network, addr, nil
}

// HostToPlugin implements runner.AddrTranslator.
func (r *modRunner) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}

// drainReader marks the stderr pipe drained when a read ends it.
type drainReader struct {
	*os.File
	r *modRunner
}

func (d *drainReader) Read(p []byte) (int, error) {
	n, err := d.File.Read(p)
	if err != nil {
		d.r.drainOnce.Do(func() { close(d.r.drained) })
	}
	return n, err
}

// exitStatus describes how the process ended: "exit status 3", "signal:
// killed".
func (r *modRunner) exitStatus() string {
	if r.exitErr == nil {
		return "exit status 0"
	}
	return r.exitErr.Error()
}

// exitCode is the process's exit status, or -1 when a signal ended it.
func (r *modRunner) exitCode() int {
	var ee *exec.ExitError
	if errors.As(r.exitErr, &ee) {
		return ee.ExitCode()
	}
	if r.exitErr == nil {
		return 0
	}
	return -1
}

// waitDrained waits, at most drainWait, for the end of the mod's stderr,
// so that its last words are read.
func (r *modRunner) waitDrained() {
	t := time.NewTimer(drainWait)
	defer t.Stop()
	select {
	case <-r.drained:
	case <-t.C:
	}
}

//go:build linux

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/sandbox"
)

// The tests here end modhost in each way a client or an operator does
// while a call runs that would run for ever (crashy_wait), and check that
// the tool saw the cancellation, modhost exited, and no mod process is left.

// modhostCommand returns modhost as a process, run from this test binary.
func modhostCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "modhost")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"--workspace", testWorkspace(t)}, args...)...)
	cmd.Env = append(os.Environ(), "MODHOST_MODS="+crashyDir(t), "MODKIT_CACHE="+cacheDir)
	return cmd
}

// workspaces holds each test's workspace, where crashy_wait may write.
var workspaces sync.Map // *testing.T -> string

// testWorkspace returns the test's session workspace, made on first use.
func testWorkspace(t *testing.T) string {
	if ws, ok := workspaces.Load(t); ok {
		return ws.(string)
	}
	ws := t.TempDir()
	workspaces.Store(t, ws)
	t.Cleanup(func() { workspaces.Delete(t) })
	return ws
}

// waitInput is crashy_wait's input: files it writes when it starts and
// when it sees the cancellation.
func waitInput(t *testing.T) (input map[string]any, started, seen string) {
	dir := testWorkspace(t)
	started, seen = filepath.Join(dir, "started"), filepath.Join(dir, "seen")
	return map[string]any{"started": started, "marker": seen}, started, seen
}

// children returns the processes whose parent is pid.
func children(t *testing.T, pid int) []int {
	t.Helper()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var pids []int
	for _, s := range stats {
		data, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(data), ')')
		f := strings.Fields(string(data[i+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			child, _ := strconv.Atoi(filepath.Base(filepath.Dir(s)))
			pids = append(pids, child)
		}
	}
	return pids
}

// waitGone waits for the processes to end.
func waitGone(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if syscall.Kill(pid, 0) != nil {
				break
			}
			if data, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); strings.Contains(string(data), ") Z ") {
				break // exited, not yet reaped by its new parent
			}
			if time.Now().After(deadline) {
				t.Errorf("mod process %d still runs 30s after modhost exited", pid)
				syscall.Kill(pid, syscall.SIGKILL)
				break
			}
		}
	}
}

// waitExit waits for cmd to exit and returns its exit code and how long it
// took from since.
func waitExit(t *testing.T, cmd *exec.Cmd, since time.Time) (int, time.Duration) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		took := time.Since(since)
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), took
		}
		if err != nil {
			t.Fatalf("wait: %v", err)
		}
		return 0, took
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatal("modhost still runs a minute later")
		return 0, 0
	}
}

func TestMCPStdioEnds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		end  func(t *testing.T, cmd *exec.Cmd, stdin io.WriteCloser, stdout io.ReadCloser)
		want int
	}{
		// At the end of stdin the call runs on; a signal still ends it.
		{"stdin closed, then SIGTERM", func(t *testing.T, cmd *exec.Cmd, stdin io.WriteCloser, _ io.ReadCloser) {
			stdin.Close()
			cmd.Process.Signal(syscall.SIGTERM)
		}, exitOK},
		// A client gone closes both ends: modhost sees stdout closed
		// without writing to it.
		{"client gone", func(t *testing.T, _ *exec.Cmd, stdin io.WriteCloser, stdout io.ReadCloser) {
			stdout.Close()
			stdin.Close()
		}, exitFailed},
		{"SIGTERM", func(t *testing.T, cmd *exec.Cmd, _ io.WriteCloser, _ io.ReadCloser) {
			cmd.Process.Signal(syscall.SIGTERM)
		}, exitOK},
		{"SIGINT", func(t *testing.T, cmd *exec.Cmd, _ io.WriteCloser, _ io.ReadCloser) { cmd.Process.Signal(os.Interrupt) }, exitOK},
		{"stdout broken", func(t *testing.T, _ *exec.Cmd, stdin io.WriteCloser, stdout io.ReadCloser) {
			stdout.Close()
			io.WriteString(stdin, `{"jsonrpc":"2.0","id":3,"method":"ping"}`+"\n")
		}, exitFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := modhostCommand(t, "mcp")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			input, started, seen := waitInput(t)
			args, _ := json.Marshal(input)
			io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
			out := bufio.NewReader(stdout)
			if line, err := out.ReadString('\n'); err != nil || !strings.Contains(line, `"id":1,"result"`) {
				t.Fatalf("initialize: got %q, %v; stderr:\n%s", line, err, stderr.String())
			}
			io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
			io.WriteString(stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"crashy_wait","arguments":`+string(args)+`}}`+"\n")
			waitFor(t, started)
			mods := children(t, cmd.Process.Pid)
			if len(mods) == 0 {
				t.Fatal("no mod process runs the call")
			}
			since := time.Now()
			tt.end(t, cmd, stdin, stdout)
			code, took := waitExit(t, cmd, since)
			t.Logf("modhost exited %s after the end", took)
			if code != tt.want {
				t.Errorf("exit code: got %d, want %d; stderr:\n%s", code, tt.want, stderr.String())
			}
			waitFor(t, seen)
			waitGone(t, mods)
		})
	}
}

// TestMCPHTTPSignal checks that SIGTERM ends modhost mcp --http with a call
// in flight that outlives the drain: the call is cancelled, modhost exits 0
// and its mods exit. The drain is short (the default is 30s), so the test
// waits through the same drain without idling half a minute.
func TestMCPHTTPSignal(t *testing.T) {
	t.Parallel()
	cmd := modhostCommand(t, "mcp", "--http", "127.0.0.1:0", "--drain", "1s")
	url := startHTTP(t, cmd) + "/mcp"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	input, started, seen := waitInput(t)
	go cs.CallTool(ctx, &mcp.CallToolParams{Name: "crashy_wait", Arguments: input})
	waitFor(t, started)
	mods := children(t, cmd.Process.Pid)
	if len(mods) == 0 {
		t.Fatal("no mod process runs the call")
	}
	since := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	code, took := waitExit(t, cmd, since)
	t.Logf("modhost exited %s after SIGTERM", took)
	if code != exitOK {
		t.Errorf("exit code: got %d, want %d", code, exitOK)
	}
	waitFor(t, seen)
	waitGone(t, mods)
}

// TestCallSignal ends modhost call with each ending signal: the tool sees
// the cancellation, and modhost stops its mod and removes the mod's socket
// directory. Starting, it removed the directories of dead hosts, and kept
// those of live ones.
func TestCallSignal(t *testing.T) {
	t.Parallel()
	for _, sig := range []os.Signal{syscall.SIGTERM, os.Interrupt, syscall.SIGHUP, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			input, started, seen := waitInput(t)
			args, _ := json.Marshal(input)
			cmd := modhostCommand(t, "call", "crashy_wait", string(args))
			tmp := t.TempDir()
			dead, live := plantSocketDirs(t, tmp)
			cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			waitFor(t, started)
			mods := children(t, cmd.Process.Pid)
			if len(mods) == 0 {
				t.Fatal("no mod process runs the call")
			}
			own, _ := filepath.Glob(filepath.Join(tmp, "modkit-crashy-"+strconv.Itoa(cmd.Process.Pid)+"-*"))
			if len(own) != 1 {
				t.Errorf("got socket directories %q of modhost's mod, want one", own)
			}
			if _, err := os.Stat(dead); !os.IsNotExist(err) {
				t.Errorf("the socket directory of a dead host is still there (%v)", err)
			}
			since := time.Now()
			cmd.Process.Signal(sig)
			code, took := waitExit(t, cmd, since)
			t.Logf("modhost exited %s after %v", took, sig)
			if code != exitCancelled {
				t.Errorf("exit code: got %d, want %d; stderr:\n%s", code, exitCancelled, stderr.String())
			}
			waitFor(t, seen)
			waitGone(t, mods)
			left, _ := filepath.Glob(filepath.Join(tmp, "modkit-*"))
			if len(left) != 1 || left[0] != live {
				t.Errorf("after %v: got socket directories %q, want only the live host's %s", sig, left, live)
			}
		})
	}
}

// plantSocketDirs makes in tmp the socket directory of a host that is
// gone and that of one that runs (this test).
func plantSocketDirs(t *testing.T, tmp string) (dead, live string) {
	t.Helper()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead = filepath.Join(tmp, "modkit-old-"+strconv.Itoa(gone.Process.Pid)+"-123")
	live = filepath.Join(tmp, "modkit-other-"+strconv.Itoa(os.Getpid())+"-456")
	for _, d := range []string{dead, live} {
		if err := os.MkdirAll(filepath.Join(d, "sock"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return dead, live
}

// TestMCPStdioEndsHungTool closes stdin while a tool runs that ignores
// cancellation (crashy_hang), then interrupts modhost: it still exits and
// leaves no mod process.
func TestMCPStdioEndsHungTool(t *testing.T) {
	t.Parallel()
	cmd := modhostCommand(t, "mcp")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	out := bufio.NewReader(stdout)
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	if line, err := out.ReadString('\n'); err != nil || !strings.Contains(line, `"id":1,"result"`) {
		t.Fatalf("initialize: got %q, %v", line, err)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"crashy_hang","arguments":{},"_meta":{"progressToken":"p"}}}`+"\n")
	// The tool's status update says it hangs.
	if line, err := out.ReadString('\n'); err != nil || !strings.Contains(line, `"message":"hanging"`) {
		t.Fatalf("progress: got %q, %v", line, err)
	}
	mods := children(t, cmd.Process.Pid)
	if len(mods) == 0 {
		t.Fatal("no mod process runs the call")
	}
	stdin.Close()
	since := time.Now()
	cmd.Process.Signal(os.Interrupt)
	go io.Copy(io.Discard, out)
	code, took := waitExit(t, cmd, since)
	t.Logf("modhost exited %s after the interrupt", took)
	if code != exitOK {
		t.Errorf("exit code: got %d, want %d", code, exitOK)
	}
	waitGone(t, mods)
}

// TestRequireConfinementNotReady checks that a replica that requires full
// confinement, on a machine that does not enforce every limit (here
// Landlock capped at ABI 3), reports itself unready, naming why.
func TestRequireConfinementNotReady(t *testing.T) {
	t.Parallel()
	cmd := modhostCommand(t, "--require-confinement", "mcp", "--http", "127.0.0.1:0", "--drain", "1s")
	cmd.Env = append(cmd.Env, sandbox.MaxABIEnv+"=3")
	resp, err := http.Get(startHTTP(t, cmd) + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "mods cannot be fully confined here: this machine does not enforce") {
		t.Errorf("/readyz: got %d %q, want 503 naming what is not enforced", resp.StatusCode, body)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if code, _ := waitExit(t, cmd, time.Now()); code != exitOK {
		t.Errorf("exit code: got %d, want %d", code, exitOK)
	}
}

// startHTTP starts cmd, a modhost mcp --http, and returns the address it
// serves, http://127.0.0.1:PORT; the process is killed when the test ends.
func startHTTP(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	url := ""
	sc := bufio.NewScanner(stderr)
	for url == "" && sc.Scan() {
		url = regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(sc.Text())
	}
	if url == "" {
		t.Fatal("modhost printed no URL")
	}
	go io.Copy(io.Discard, stderr)
	return url
}

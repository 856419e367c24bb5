package testserver

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/testenv"
)

// Need returns the path of program, reported missing (a skip locally, a
// failure under CI) when it is not installed.
func Need(t testing.TB, program string) string {
	t.Helper()
	return testenv.LookPath(t, program, "apt-get install "+program+" (.ci/run installs it)")
}

// FreePort returns a loopback port nothing listens on now.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Redis is a redis-server a test started.
type Redis struct {
	t    testing.TB
	bin  string
	dir  string
	Port int
	cmd  *exec.Cmd
}

// URL is the store URL of the server's database 0.
func (r *Redis) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", r.Port) }

// StartRedis starts a redis-server with no persistence, stopped at t's
// cleanup.
func StartRedis(t testing.TB) *Redis {
	t.Helper()
	r := &Redis{t: t, bin: Need(t, "redis-server"), dir: t.TempDir(), Port: FreePort(t)}
	r.Start()
	t.Cleanup(r.Stop)
	return r
}

// Start starts the server again after Stop, on the same port.
func (r *Redis) Start() {
	r.t.Helper()
	cmd := exec.Command(r.bin, "--port", strconv.Itoa(r.Port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", r.dir, "--protected-mode", "no")
	waitFor(r.t, cmd, "Ready to accept connections", "redis-server")
	r.cmd = cmd
}

// Stop stops the server; its data is lost.
func (r *Redis) Stop() {
	if r.cmd == nil {
		return
	}
	r.cmd.Process.Kill()
	r.cmd.Wait()
	r.cmd = nil
}

// waitFor starts cmd and waits until its output has a line containing
// ready, failing t when it exits first.
func waitFor(t testing.TB, cmd *exec.Cmd, ready, name string) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	found := make(chan bool, 1)
	var tail []string
	go func() {
		sc := bufio.NewScanner(out)
		ok := false
		for sc.Scan() {
			line := sc.Text()
			if !ok {
				tail = append(tail, line)
				if strings.Contains(line, ready) {
					ok = true
					found <- true
				}
			}
		}
		if !ok {
			found <- false
		}
	}()
	select {
	case ok := <-found:
		if !ok {
			cmd.Wait()
			t.Fatalf("%s exited before it was ready:\n%s", name, strings.Join(tail, "\n"))
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%s was not ready within 30 s", name)
	}
}

// HAProxy is an haproxy a test started.
type HAProxy struct {
	Port int
}

// StartHAProxy starts haproxy with config, a configuration whose one
// frontend binds to 127.0.0.1:{{PORT}} and whose stats socket, if any, is
// written {{DIR}}/stats; it is stopped at t's cleanup.
func StartHAProxy(t testing.TB, config string) *HAProxy {
	t.Helper()
	bin := Need(t, "haproxy")
	dir := t.TempDir()
	h := &HAProxy{Port: FreePort(t)}
	config = strings.ReplaceAll(config, "{{PORT}}", strconv.Itoa(h.Port))
	config = strings.ReplaceAll(config, "{{DIR}}", dir)
	cfg := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-c", "-f", cfg).CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-db", "-f", cfg)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start haproxy: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// Ready when it accepts connections.
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", h.Port))
		if err == nil {
			c.Close()
			return h
		}
		if time.Now().After(deadline) {
			t.Fatalf("haproxy did not listen within 30 s: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

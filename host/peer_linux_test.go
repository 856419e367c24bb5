package host_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/testenv"
)

// TestModAnswersOnlyItsHost checks the argument of package peercred: with
// no TLS on its socket, a mod answers the process that started it and no
// other, whether of the same user or of another.
func TestModAnswersOnlyItsHost(t *testing.T) {
	h := load(t, nil, quickDir)
	addr, _, err := host.ModSocket(h.Host, "quick")
	if err != nil {
		t.Fatal(err)
	}
	// The host's own process is answered: the address is right, and a
	// refusal below is the mod's.
	ctx, cancel := context.WithDeadline(context.Background(), deadline(t))
	defer cancel()
	if err := describeOver(ctx, addr); err != nil {
		t.Fatalf("the host's process: got %v, want an answer", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("same_user", func(t *testing.T) {
		out := dialFrom(t, exec.Command(exe), addr)
		if !strings.HasPrefix(out, "refused: ") || !strings.Contains(out, "Unavailable") {
			t.Fatalf("another process of the same user: got %q, want the connection refused", out)
		}
	})
	t.Run("other_user", func(t *testing.T) {
		testenv.NeedRoot(t, "starting a process of another user")
		// The test binary must be executable by that user.
		dir, err := os.MkdirTemp("", "modkit-peer-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		copyExe := filepath.Join(dir, "helper")
		data, err := os.ReadFile(exe)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(copyExe, data, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(copyExe)
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out := dialFrom(t, cmd, addr)
		if !strings.HasPrefix(out, "refused: ") || !strings.Contains(out, "permission denied") {
			t.Fatalf("a process of another user: got %q, want the socket refused it", out)
		}
	})
}

// dialFrom runs cmd as the dial helper of addr and returns what it says.
func dialFrom(t *testing.T, cmd *exec.Cmd, addr string) string {
	t.Helper()
	cmd.Env = append(os.Environ(), dialHelperEnv+"="+addr)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dial helper: %v; it said %q", err, out)
	}
	return strings.TrimSpace(string(out))
}

//go:build unix

package host_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/modkit/modkit/internal/testenv"
)

// readOnlyDir returns an empty directory the test process cannot write: by
// its mode bits, or for root, which they do not stop, as a read-only bind
// mount. When neither is possible it reports what is [testenv.Missing].
func readOnlyDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if os.Getuid() != 0 {
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
		return dir
	}
	ro := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(ro, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "--bind", "-o", "ro", dir, ro).CombinedOutput(); err != nil {
		testenv.Missing(t, "a read-only bind mount, which root needs for a directory it cannot write (mount --bind: %v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { exec.Command("umount", ro).Run() })
	if exec.Command("mount", "-o", "remount,bind,ro", ro).Run() != nil || os.WriteFile(filepath.Join(ro, "probe"), nil, 0o600) == nil {
		testenv.Missing(t, "a read-only bind mount, which root needs for a directory it cannot write (the remount left it writable)")
	}
	return ro
}

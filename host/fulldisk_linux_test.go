package host_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/testenv"
)

// A cache on a full disk fails the build saying so, remembers nothing, and
// once there is room the next call builds. The disk is a small tmpfs, where
// the machine lets the test mount one.
func TestFullDiskBuild(t *testing.T) {
	t.Parallel()
	testenv.NeedRoot(t, "mounting a tmpfs")
	cache := filepath.Join(t.TempDir(), "cache")
	if err := os.Mkdir(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", cache).CombinedOutput(); err != nil {
		testenv.Missing(t, "a tmpfs mount (mount -t tmpfs: %v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { exec.Command("umount", cache).Run() })
	h := load(t, &host.Options{CacheDir: cache}, quickDir)
	res := call(t, h, "quick_echo", `{"text":"x"}`)
	wantStatus(t, res, host.StatusFailed)
	if want := "Tool failed: mod quick is unavailable: its build failed: no space left on device; the next call builds it again"; res.Text != want {
		t.Errorf("got text %q, want %q", res.Text, want)
	}
	if !strings.Contains(h.progress.String(), "no space left on device") {
		t.Errorf("progress %q does not say the disk is full", h.progress)
	}
	if out, err := exec.Command("mount", "-o", "remount,size=256m", cache).CombinedOutput(); err != nil {
		t.Fatalf("grow the tmpfs: %v: %s", err, out)
	}
	wantStatus(t, call(t, h, "quick_echo", `{"text":"x"}`), host.StatusCompleted)
}

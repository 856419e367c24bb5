package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartConfinesTheProcess runs cat confined to one directory: it reads
// a file there, not one beside it, and the test's own process, which
// started it, stays unconfined.
func TestStartConfinesTheProcess(t *testing.T) {
	if err := Check(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs a kernel that confines mods: %v", err)
		}
		t.Skip(err)
	}
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat")
	}
	allowed, denied := t.TempDir(), t.TempDir()
	for _, dir := range []string{allowed, denied} {
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte("text"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := &Policy{Read: []string{allowed}, ReadExec: []string{"/lib", "/lib64", "/usr/lib", "/usr/lib64", "/etc/ld.so.cache"}, Exec: []string{cat}, Write: []string{os.DevNull}}
	run := func(file string) (string, error) {
		cmd := exec.Command(cat, file)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		exited := make(chan struct{})
		if err := Start(p, cmd.Start, exited); err != nil {
			return "", err
		}
		err := cmd.Wait()
		close(exited)
		return out.String(), err
	}
	if out, err := run(filepath.Join(allowed, "f")); err != nil || out != "text" {
		t.Errorf("reading the allowed file: got %q, %v; want text", out, err)
	}
	if out, err := run(filepath.Join(denied, "f")); err == nil || !strings.Contains(out, "Permission denied") {
		t.Errorf("reading the other file: got %q, %v; want permission denied", out, err)
	}
	if _, err := os.ReadFile(filepath.Join(denied, "f")); err != nil {
		t.Errorf("the test's process is confined too: %v", err)
	}
}

func TestCheckDisabled(t *testing.T) {
	Disable(true)
	defer Disable(false)
	if err := Check(); err == nil || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("got %v, want the disabled error", err)
	}
}

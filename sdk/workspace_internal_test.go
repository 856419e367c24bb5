package sdk

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/modkit/modkit/internal/sdkrt"
)

func TestToolContextWorkspace(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("in"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "leak")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	tc := newToolContext(context.Background(), sdkrt.Call{Workspace: dir})
	root, err := tc.Workspace()
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := tc.Workspace(); again != root {
		t.Error("got a second root, want the call's one root")
	}
	if data, err := root.ReadFile("in.txt"); err != nil || string(data) != "in" {
		t.Errorf("reading inside: got %q, %v", data, err)
	}
	for _, name := range []string{"leak", "../secret.txt", outside} {
		if data, err := root.ReadFile(name); err == nil {
			t.Errorf("reading %s: got %q, want it refused", name, data)
		}
	}
	tc.end()
	if _, err := root.ReadFile("in.txt"); err == nil {
		t.Error("root still open after the call ended")
	}
	if _, err := tc.Workspace(); err == nil {
		t.Error("got a workspace after the call ended, want an error")
	}

	for _, tt := range []struct{ ws, want string }{
		{"", "the session has no workspace root"},
		{filepath.Join(dir, "gone"), "workspace root: no such file or directory"},
	} {
		tc := newToolContext(context.Background(), sdkrt.Call{Workspace: tt.ws})
		if _, err := tc.Workspace(); err == nil || err.Error() != tt.want {
			t.Errorf("workspace %q: got %v, want %q", tt.ws, err, tt.want)
		}
		tc.end()
	}
}

//go:build unix

package dependencies

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/modkit/modkit/sdk/modtest"
)

// TestInspectStaysInsideWorkspace checks that files and directories leading
// outside the workspace through symbolic links are never read, and that a
// FIFO named like a Go file is skipped without blocking the scan.
func TestInspectStaysInsideWorkspace(t *testing.T) {
	outside := workspace(t, map[string]string{
		"leak.go":     goFile("leak", "example.com/app/store"),
		"pkg/p.go":    goFile("p", "example.com/app/store"),
		"mod/go.mod":  "module example.com/outside\n",
		"mod/main.go": goFile("main", "example.com/app/store"),
	})
	dir := workspace(t, map[string]string{
		"go.mod":         "module example.com/app\n",
		"store/store.go": goFile("store"),
		"api/api.go":     goFile("api", "example.com/app/store"),
	})
	mustLink := func(target, link string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	mustLink(filepath.Join(outside, "leak.go"), "api/leak.go")
	mustLink("../../"+filepath.Base(outside)+"/leak.go", "api/rel.go")
	mustLink(filepath.Join(outside, "pkg"), "linked")
	if err := syscall.Mkfifo(filepath.Join(dir, "api", "pipe.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, r := inspectRun(t, dir, `{"package":"example.com/app/store"}`)
	if out.Status != modtest.StatusCompleted {
		t.Fatalf("got %s %q, want completed", out.Status, out.Text)
	}
	if got, want := packages(r.Direct), []string{"example.com/app/api"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got direct %v, want %v: nothing from outside", got, want)
	}
	var logs []string
	for _, e := range out.Activity.Log {
		logs = append(logs, e.Message)
	}
	for _, want := range []string{"Skipped api/leak.go: it leads outside the workspace through a symbolic link.",
		"Skipped api/rel.go: it leads outside the workspace through a symbolic link.", "Skipped api/pipe.go: it is not a regular file."} {
		if !strings.Contains(strings.Join(logs, "\n"), want) {
			t.Errorf("got log %q, want a line %q", logs, want)
		}
	}

	// A go.work naming a module through a link to outside.
	if err := os.WriteFile(filepath.Join(dir, "go.work"), []byte("use ./outmod\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustLink(filepath.Join(outside, "mod"), "outmod")
	out, _ = inspectRun(t, dir, `{"package":"example.com/app/store"}`)
	if out.Status != modtest.StatusFailed || !strings.Contains(out.Text, "outmod/go.mod: it leads outside the workspace") {
		t.Errorf("go.work using a linked module outside: got %s %q, want failed naming outmod/go.mod", out.Status, out.Text)
	}
}

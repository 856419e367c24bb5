package modbuild

import (
	"os"
	"path/filepath"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestModuleInputsFollowModuleFiles checks that a recorded failure to load
// the module goes stale when go.mod, go.sum or a replacement's go.mod
// changes.
func TestModuleInputsFollowModuleFiles(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "mod", "tasks")
	writeFiles(t, map[string]string{
		filepath.Join(dir, "go.mod"):            "module example.com/tasks\n\ngo 1.26.0\n\nreplace github.com/modkit/modkit => ../../modkit\n",
		filepath.Join(dir, "tasks.go"):          "package tasks\n",
		filepath.Join(root, "modkit", "go.mod"): "module github.com/modkit/modkit\n",
	})
	inputs := ModuleInputs(dir)
	before := Digest(inputs)
	for _, f := range []string{filepath.Join(dir, "go.sum"), filepath.Join(root, "modkit", "go.mod"), filepath.Join(dir, "tasks.go")} {
		writeFiles(t, map[string]string{f: "changed\n"})
		if after := Digest(inputs); after == before {
			t.Errorf("after writing %s: got the same digest, want another", f)
		} else {
			before = after
		}
	}
}

func TestRequiresServing(t *testing.T) {
	for _, c := range []struct {
		goMod string
		want  bool
	}{
		{"module example.com/tasks\n\ngo 1.26.0\n", false},
		{"module example.com/tasks\n\ngo 1.26.0\n\ntool github.com/modkit/modkit/cmd/modhost\n", true},
		{"module github.com/modkit/modkit\n\ngo 1.26.0\n", true},
	} {
		dir := t.TempDir()
		writeFiles(t, map[string]string{filepath.Join(dir, "go.mod"): c.goMod})
		if got := RequiresServing(dir); got != c.want {
			t.Errorf("RequiresServing with go.mod %q: got %v, want %v", c.goMod, got, c.want)
		}
	}
}

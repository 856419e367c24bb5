package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/modkit/modkit/internal/testenv"
)

// nobody is the user the runtime layout runs as when the test runs as root.
const nobody = 65534

// TestRuntimeLayout runs modhost as an image runs it, without a
// container: the example mods built by modhost build into a cache it may
// not write, no go command on its PATH, a user other than root (nobody,
// when the test runs as root) and the mods' packages copied elsewhere.
// Every example tool answers, and the cache is left as it was.
func TestRuntimeLayout(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// A directory nobody may read: t.TempDir's parent is private.
	work, err := os.MkdirTemp("", "modkit-runtime-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(work) })
	if err := os.Chmod(work, 0o755); err != nil {
		t.Fatal(err)
	}
	modhost := filepath.Join(work, "modhost")
	copyFile(t, testenv.Modhost(t), modhost, 0o755)
	mods := filepath.Join(work, "mods")
	var modDirs []string
	for _, name := range []string{"research", "dependencies"} {
		dir := filepath.Join(mods, name)
		copyPackage(t, filepath.Join(root, "examples", name), dir)
		modDirs = append(modDirs, dir)
	}

	// Built as a builder stage would: with the go command, by this user.
	cache := filepath.Join(work, "cache")
	build := exec.Command(modhost, "--mods", strings.Join([]string{filepath.Join(root, "examples", "research"), filepath.Join(root, "examples", "dependencies")}, ","), "build", "-o", cache)
	build.Dir = work
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("modhost build: %v\n%s", err, out)
	}

	// Then read-only for the user who runs it, nobody or this user:
	// directories and programs 0555, other files 0444.
	runAs := os.Getuid()
	if runAs == 0 {
		runAs = nobody
	}
	err = filepath.WalkDir(work, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == work {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := os.FileMode(0o444)
		if d.IsDir() || info.Mode().Perm()&0o100 != 0 {
			mode = 0o555
		}
		return os.Chmod(path, mode)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.WalkDir(work, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(path, 0o755)
			}
			return nil
		})
	})
	ws := filepath.Join(work, "workspace")
	tmp := filepath.Join(work, "tmp")
	writeWorkspace(t, ws)
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{ws, tmp} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil {
				err = os.Lchown(path, runAs, runAs)
			}
			return err
		})
	}
	before := listTree(t, cache)

	run := func(args ...string) (string, string, error) {
		cmd := exec.Command(modhost, append([]string{"--mods", strings.Join(modDirs, ","), "--workspace", ws}, args...)...)
		cmd.Dir = ws
		cmd.Env = []string{"PATH=" + withoutGo(os.Getenv("PATH")), "HOME=" + work, "TMPDIR=" + tmp, "MODKIT_CACHE=" + cache}
		if os.Getuid() == 0 {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
		}
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}

	calls := []struct{ tool, input, want string }{
		{"research_word_count", `{"text":"one two three"}`, "3 words"},
		{"research_search_workspace", `{"query":"needle"}`, "notes.txt:2"},
		{"research_save_note", `{"path":"notes/found.md","text":"found it"}`, "notes/found.md"},
		{"research_open_file", `{"path":"notes.txt","line":2}`, "needle"},
		{"dependencies_inspect", `{"package":"example.com/app/store"}`, "example.com/app"},
		{"dependencies_modules", `{}`, "example.com/app"},
	}
	out, stderr, err := run("list", "--json")
	if err != nil {
		t.Fatalf("modhost list: %v\n%s", err, stderr)
	}
	var listed []struct{ Name string }
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatalf("modhost list --json: %v\n%s", err, out)
	}
	for _, l := range listed {
		if !slices.ContainsFunc(calls, func(c struct{ tool, input, want string }) bool { return c.tool == l.Name }) {
			t.Errorf("tool %s is listed, and this test does not call it: add it to the calls", l.Name)
		}
	}
	for _, c := range calls {
		out, stderr, err := run("call", "--yes", c.tool, c.input)
		if err != nil || !strings.Contains(out, c.want) {
			t.Errorf("modhost call %s %s: got %v, stdout %q, want it to contain %q; stderr:\n%s", c.tool, c.input, err, out, c.want, stderr)
		}
		if strings.Contains(stderr, "building") {
			t.Errorf("modhost call %s: built a mod:\n%s", c.tool, stderr)
		}
	}
	if data, err := os.ReadFile(filepath.Join(ws, "notes", "found.md")); err != nil || !strings.Contains(string(data), "found it") {
		t.Errorf("the saved note: got %q, %v; want it to hold the text", data, err)
	}
	if after := listTree(t, cache); after != before {
		t.Errorf("the cache changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// writeWorkspace writes a small Go module and a note into dir.
func writeWorkspace(t *testing.T, dir string) {
	t.Helper()
	for name, content := range map[string]string{
		"go.mod":         "module example.com/app\n\ngo 1.24\n",
		"main.go":        "package main\n\nimport _ \"example.com/app/store\"\n\nfunc main() {}\n",
		"store/store.go": "// Package store stores.\npackage store\n",
		"notes.txt":      "alpha\nneedle here\nomega\n",
	} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// copyPackage copies a mod's package directory as an image holds it: its
// files but the tests.
func copyPackage(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		switch {
		case d.IsDir() && d.Name() == "testdata":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		case strings.HasSuffix(d.Name(), "_test.go") || !d.Type().IsRegular():
			return nil
		}
		copyFile(t, path, filepath.Join(dst, rel), 0o644)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, src, dst string, perm os.FileMode) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, perm); err != nil {
		t.Fatal(err)
	}
}

// listTree lists the files under dir with their modes, sizes and
// modification times: a write or a touch changes it.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		b.WriteString(rel + " " + info.Mode().String() + " " + info.ModTime().String() + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

package host_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/modkit/modkit/host"
)

// writeKeymod writes testdata/keymod.txtar into a new directory, with the
// checkout's go.sum, generates the mod and returns the mod's directory.
func writeKeymod(t *testing.T) string {
	t.Helper()
	checkout, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile("testdata/keymod.txtar")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, f := range ar.Files {
		data := bytes.ReplaceAll(f.Data, []byte("MODKIT"), []byte(checkout))
		path := filepath.Join(root, f.Name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := os.ReadFile(filepath.Join(checkout, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "main", "go.sum"), sum, 0o644)
	dir := filepath.Join(root, "main", "keymod")
	cmd := exec.Command("go", "run", "github.com/modkit/modkit/cmd/modgen", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("modgen: %v\n%s", err, out)
	}
	return dir
}

// A change to a mod's build inputs reaches the next call: the next host
// builds again and runs the new code. Which edits change the cache key or
// the sources' digest is internal/modbuild's TestKeyCoversEveryInput and
// TestEveryInputIsCovered, without building; this test builds once per
// kind of change the host acts on: a source the digest covers, and the
// configuration the key covers.
func TestChangedInputsRebuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a mod three times")
	}
	dir := writeKeymod(t)
	root := filepath.Dir(filepath.Dir(dir))
	cache := t.TempDir()
	show := func(t *testing.T) (string, int) {
		t.Helper()
		h := load(t, &host.Options{CacheDir: cache}, dir)
		defer h.Close()
		res, err := h.Call(context.Background(), &host.CallRequest{Tool: "keymod_show"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != host.StatusCompleted {
			t.Fatalf("got %s: %s", res.Status, res.Error)
		}
		return res.Text, builds(h, "keymod")
	}
	edit := func(path, old, new string) func(t *testing.T) {
		return func(t *testing.T) {
			path := filepath.Join(root, path)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(data, []byte(old)) {
				t.Fatalf("%s has no %q", path, old)
			}
			os.WriteFile(path, bytes.ReplaceAll(data, []byte(old), []byte(new)), 0o644)
		}
	}
	text, n := show(t)
	if want := "sib-1 dep-1 wdep-1 msg-1\n notag cgo"; text != want || n != 1 {
		t.Fatalf("first call: got %q after %d builds, want %q after 1", text, n, want)
	}
	if _, n := show(t); n != 0 {
		t.Fatalf("second call: got %d builds, want 0", n)
	}
	for _, tt := range []struct {
		name   string
		change func(t *testing.T)
		want   string
	}{
		{"sibling package", edit("main/sib/sib.go", "sib-1", "sib-2"), "sib-2"},
		{"GOFLAGS build tags", func(t *testing.T) { t.Setenv("GOFLAGS", os.Getenv("GOFLAGS")+" -tags=keymodtag") }, " tag "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.change(t)
			text, n := show(t)
			if n != 1 || !strings.Contains(text, tt.want) {
				t.Errorf("got %q after %d builds, want %q after 1", text, n, tt.want)
			}
		})
	}
}

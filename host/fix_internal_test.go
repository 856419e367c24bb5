package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/modbuild"
	"github.com/modkit/modkit/manifest"
)

// TestBuildFixNamesOwnDirectory checks that the advice on a failed build
// names the mod's directory when it is the person's, and never the host's
// copy of a published module.
func TestBuildFixNamesOwnDirectory(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	own := t.TempDir()
	copied := filepath.Join(cache, "mods", "example.com", "tasks@v1.0.0")
	bare := t.TempDir()
	copiedTool := filepath.Join(cache, "mods", "example.com", "tasks@v1.0.1")
	withTool := "module example.com/tasks\n\ngo 1.26.0\n\ntool github.com/modkit/modkit/cmd/modhost\n"
	withoutTool := "module example.com/tasks\n\ngo 1.26.0\n"
	for dir, goMod := range map[string]string{own: withTool, bare: withoutTool, copied: withoutTool, copiedTool: withTool} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := &Host{opts: Options{CacheDir: cache}}
	tidy := &modbuild.Record{Failure: "go: updates to go.mod needed; to update it:\n\tgo mod tidy"}
	compile := &modbuild.Record{Failure: "./tasks.go:3:1: syntax error"}
	for _, c := range []struct {
		dir    string
		r      *modbuild.Record
		want   string
		absent string
	}{
		{own, tidy, "run go mod tidy in " + own, ""},
		{own, compile, "fix the errors, then call again", ""},
		{bare, tidy, "run go mod edit -tool github.com/modkit/modkit/cmd/modhost and go mod tidy in " + bare, ""},
		{bare, compile, "fix the errors, then call again", ""},
		{copied, tidy, "ask its author to add the tool github.com/modkit/modkit/cmd/modhost, run go mod tidy and publish a new version", cache},
		{copiedTool, tidy, "ask its author for a version made with go mod tidy", cache},
		{copied, compile, "ask its author for a version that builds", cache},
	} {
		m := &mod{h: h, dir: c.dir, man: &manifest.Manifest{ID: "tasks"}, availability: availability{given: c.dir}}
		got := m.fix(c.r)
		if !strings.Contains(got, c.want) || c.absent != "" && strings.Contains(got, c.absent) {
			t.Errorf("fix of %q in %s: got %q, want %q and no %s", c.r.Failure, c.dir, got, c.want, c.absent)
		}
	}
}

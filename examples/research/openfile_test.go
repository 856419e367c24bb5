package research

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk/modtest"
)

func TestOpenFile(t *testing.T) {
	dir := workspace(t, map[string]string{
		"notes/plan.md": "# Plan\n\n  Ship the parser.  \nTest it.\n",
		"empty.txt":     "",
		"bin.dat":       "a\x00b\n",
	})
	tests := []struct {
		name, input string
		// want is the model's text; open, when set, the file and line the
		// client is asked to open.
		want string
		path string
		line int
	}{
		{name: "at a line", input: `{"path":"notes/plan.md","line":3}`,
			want: "Asked the client to show notes/plan.md at line 3 to the person; the line reads: Ship the parser.", path: "notes/plan.md", line: 3},
		{name: "first line by default", input: `{"path":"./notes//plan.md"}`,
			want: "Asked the client to show notes/plan.md at line 1 to the person; the line reads: # Plan", path: "notes/plan.md", line: 1},
		{name: "last line", input: `{"path":"notes/plan.md","line":4}`,
			want: "Asked the client to show notes/plan.md at line 4 to the person; the line reads: Test it.", path: "notes/plan.md", line: 4},
		{name: "past the end", input: `{"path":"notes/plan.md","line":5}`,
			want: "Nothing was opened: notes/plan.md has 4 lines, so it has no line 5."},
		{name: "empty file", input: `{"path":"empty.txt"}`,
			want: "Nothing was opened: empty.txt has 0 lines, so it has no line 1."},
		{name: "binary", input: `{"path":"bin.dat"}`,
			want: "Nothing was opened: bin.dat is a binary file."},
		{name: "missing", input: `{"path":"nope.md"}`,
			want: "Nothing was opened: nope.md cannot be read: no such file or directory."},
		{name: "directory", input: `{"path":"notes"}`,
			want: "Nothing was opened: notes is not a regular file."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := modtest.Run(t, generated(), "research_open_file", tt.input, &modtest.Options{Workspace: dir})
			mustComplete(t, out)
			if out.Text != tt.want {
				t.Errorf("got text %q, want %q", out.Text, tt.want)
			}
			if tt.path == "" {
				out.WantActions(t)
				return
			}
			out.WantActions(t, OpenFile.New(OpenFileParams{Path: tt.path, Line: tt.line}))
		})
	}
}

func TestOpenFileRefusesPathsOutside(t *testing.T) {
	dir := workspace(t, map[string]string{"a.md": "a\n"})
	for _, input := range []string{`{"path":"../a.md"}`, `{"path":"/etc/passwd"}`, `{"path":""}`, `{"path":"a.md","line":0}`} {
		out := modtest.Run(t, generated(), "research_open_file", input, &modtest.Options{Workspace: dir})
		if out.Status != modtest.StatusFailed || !strings.HasPrefix(out.Text, "Tool failed: invalid input for tool research_open_file:") {
			t.Errorf("%s: got %s %q, want invalid input", input, out.Status, out.Text)
		}
		if out.Actions != nil {
			t.Errorf("%s: got actions %+v, want none", input, out.Actions)
		}
	}
}

// TestOpenFileStaysInside opens a link that leads outside the workspace:
// nothing is opened, and the model reads why.
func TestOpenFileStaysInside(t *testing.T) {
	outside := workspace(t, map[string]string{"secret.txt": "secret\n"})
	dir := workspace(t, nil)
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	out := modtest.Run(t, generated(), "research_open_file", `{"path":"link.txt"}`, &modtest.Options{Workspace: dir})
	mustComplete(t, out)
	if want := "Nothing was opened: link.txt leads outside the workspace through a symbolic link."; out.Text != want {
		t.Errorf("got text %q, want %q", out.Text, want)
	}
	out.WantActions(t)
}

package research

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

func TestNotesIndex(t *testing.T) {
	dir := workspace(t, map[string]string{
		"notes/findings.md": "# Findings\n",
		"todo.txt":          "- read\n",
		"main.go":           "package main\n",
		".git/HEAD.md":      "not a note\n",
	})
	got, err := modtest.ReadResource(t, generated(), notesIndexURI, &modtest.Options{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := "# Notes\n\n" +
		"- [notes/findings.md](research://notes/notes%2Ffindings.md)\n" +
		"- [todo.txt](research://notes/todo.txt)\n"
	if got.Text != want {
		t.Errorf("got %q, want %q", got.Text, want)
	}

	got, err = modtest.ReadResource(t, generated(), notesIndexURI, &modtest.Options{Workspace: workspace(t, nil)})
	if err != nil || !strings.Contains(got.Text, "no notes yet") {
		t.Errorf("empty workspace: got %q, %v; want it to say there are no notes yet", got.Text, err)
	}
}

func TestReadNote(t *testing.T) {
	dir := workspace(t, map[string]string{
		"notes/findings.md": "# Findings\n",
		"todo.txt":          "- read\n",
		"binary.md":         "\xff\xfe",
	})
	if err := os.Symlink(filepath.Join(t.TempDir(), "outside.md"), filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	opts := &modtest.Options{Workspace: dir}
	for _, tt := range []struct{ uri, text, mime string }{
		{noteURI("notes/findings.md"), "# Findings\n", "text/markdown"},
		{"research://notes/todo.txt", "- read\n", "text/plain"},
	} {
		got, err := modtest.ReadResource(t, generated(), tt.uri, opts)
		if err != nil || got.Text != tt.text || got.MIMEType != tt.mime {
			t.Errorf("%s: got %q (%s), %v; want %q (%s)", tt.uri, got.Text, got.MIMEType, err, tt.text, tt.mime)
		}
	}
	for _, tt := range []struct {
		uri, want string
		notFound  bool
	}{
		{"research://notes/nothing.md", "resource not found", true},
		{"research://notes/main.go", "resource not found", true},
		{"research://notes/..%2Fsecret.md", `note path "../secret.md" leaves the workspace root`, false},
		{"research://notes/%2Fetc%2Fpasswd.md", `note path "/etc/passwd.md" must be relative`, false},
		{"research://notes/binary.md", "note binary.md is not text", false},
		{"research://notes/link.md", "note link.md leads outside the workspace", false},
	} {
		_, err := modtest.ReadResource(t, generated(), tt.uri, opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) || errors.Is(err, sdk.ErrResourceNotFound) != tt.notFound {
			t.Errorf("%s: got error %v, want one saying %q (not found: %v)", tt.uri, err, tt.want, tt.notFound)
		}
	}
}

func TestCompleteNote(t *testing.T) {
	dir := workspace(t, map[string]string{
		"notes/a.md": "a", "notes/b.txt": "b", "notes/c.go": "c", "other.md": "o",
	})
	got, err := modtest.Complete(t, generated(), "", noteTemplate, sdk.CompletionRequest{Argument: "path", Value: "notes/"}, &modtest.Options{Workspace: dir})
	if want := []string{"notes/a.md", "notes/b.txt"}; err != nil || !slices.Equal(got.Values, want) || got.HasMore {
		t.Errorf("got %v (more: %v), %v; want %v", got.Values, got.HasMore, err, want)
	}
}

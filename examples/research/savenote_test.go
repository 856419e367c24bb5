package research

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk/modtest"
)

func runSaveNote(t *testing.T, dir, input string, approver modtest.Approver) *modtest.Outcome {
	t.Helper()
	return modtest.Run(t, generated(), "research_save_note", input, &modtest.Options{Workspace: dir, Approver: approver})
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestSaveNoteCreates(t *testing.T) {
	dir := workspace(t, nil)
	var asked []string
	out := runSaveNote(t, dir, `{"path":"notes/today.md","text":"# Findings\n"}`, func(_ context.Context, reason string) (bool, error) {
		asked = append(asked, reason)
		return true, nil
	})
	mustComplete(t, out)
	wantReason := "Create notes/today.md in the workspace with a note of 11 bytes."
	if len(asked) != 1 || asked[0] != wantReason || out.ApprovalReason != wantReason {
		t.Errorf("got asked %q (reason %q), want once %q", asked, out.ApprovalReason, wantReason)
	}
	if want := "Saved the note as notes/today.md (11 bytes, a new file)."; out.Text != want {
		t.Errorf("got %q, want %q", out.Text, want)
	}
	if got := readFile(t, dir, "notes/today.md"); got != "# Findings\n" {
		t.Errorf("got file %q, want the note", got)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "notes")); len(entries) != 1 {
		t.Errorf("got %d files in notes, want 1 (no temporary file left)", len(entries))
	}
}

func TestSaveNoteOverwrites(t *testing.T) {
	dir := workspace(t, map[string]string{"todo.txt": strings.Repeat("x", 2048)})
	out := runSaveNote(t, dir, `{"path":"todo.txt","text":"done"}`, modtest.Approve)
	mustComplete(t, out)
	if want := "Overwrite todo.txt in the workspace (2 kB now) with a note of 4 bytes; its current text is lost."; out.ApprovalReason != want {
		t.Errorf("got reason %q, want %q", out.ApprovalReason, want)
	}
	if want := "Saved the note as todo.txt (4 bytes), replacing the previous 2 kB."; out.Text != want {
		t.Errorf("got %q, want %q", out.Text, want)
	}
	if got := readFile(t, dir, "todo.txt"); got != "done" {
		t.Errorf("got file %q, want %q", got, "done")
	}
}

func TestSaveNoteDenied(t *testing.T) {
	dir := workspace(t, map[string]string{"todo.txt": "keep me"})
	out := runSaveNote(t, dir, `{"path":"todo.txt","text":"gone"}`, modtest.Deny)
	if out.Status != modtest.Denied {
		t.Fatalf("got %s: %s, want denied", out.Status, out.Text)
	}
	if !strings.HasPrefix(out.Text, "The person declined this call, so research_save_note did not run. They were asked: Overwrite todo.txt") {
		t.Errorf("got %q, want the model told the person declined, with the reason", out.Text)
	}
	if got := readFile(t, dir, "todo.txt"); got != "keep me" {
		t.Errorf("got file %q after a denial, want it untouched", got)
	}
}

func TestSaveNoteNeverAnswered(t *testing.T) {
	dir := workspace(t, nil)
	ctx, cancel := context.WithCancel(t.Context())
	asked := func(ctx context.Context, reason string) (bool, error) {
		cancel() // the person walks away; the caller gives up
		return modtest.NeverAnswer(ctx, reason)
	}
	out := modtest.Run(t, generated(), "research_save_note", `{"path":"a.md","text":"x"}`,
		&modtest.Options{Workspace: dir, Approver: asked, Context: ctx})
	if out.Status != modtest.Cancelled {
		t.Fatalf("got %s: %s, want cancelled", out.Status, out.Text)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.md")); !os.IsNotExist(err) {
		t.Errorf("got %v for the note of a cancelled call, want no file", err)
	}
}

func TestSaveNoteWithoutApprover(t *testing.T) {
	out := runSaveNote(t, workspace(t, nil), `{"path":"a.md","text":"x"}`, nil)
	if want := "Tool failed: tool research_save_note needs a person's approval and none could be asked: Create a.md"; out.Status != modtest.Failed || !strings.HasPrefix(out.Text, want) {
		t.Errorf("got %s: %q, want failed: %q…", out.Status, out.Text, want)
	}
}

func TestSaveNoteRefuses(t *testing.T) {
	dir := workspace(t, map[string]string{"dir.md/x": ""})
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ input, want string }{
		{`{"path":"../out.md","text":"x"}`, "/path: must be a clean path inside the workspace"},
		{`{"path":"/tmp/out.md","text":"x"}`, "/path: must be relative to the workspace root"},
		{`{"path":"a/./b.md","text":"x"}`, "/path: must be a clean path inside the workspace, like a/b.md"},
		{`{"path":"main.go","text":"x"}`, "/path: must end in .md or .txt"},
		{`{"path":"a\\b.md","text":"x"}`, "/path: use forward slashes"},
		{`{"path":"dir.md","text":"x"}`, "Tool failed: dir.md is not a regular file"},
		{`{"path":"link.md","text":"x"}`, "Tool failed: link.md is not a regular file"},
	}
	for _, tt := range tests {
		out := runSaveNote(t, dir, tt.input, modtest.Approve)
		if out.Status != modtest.Failed || !strings.Contains(out.Text, tt.want) || out.ApprovalReason != "" {
			t.Errorf("%s: got %s: %q (asked %q), want failed, unasked: %q", tt.input, out.Status, out.Text, out.ApprovalReason, tt.want)
		}
	}
	if got, err := os.Readlink(filepath.Join(dir, "link.md")); err != nil || got != "/etc/passwd" {
		t.Errorf("got link %q, %v, want it untouched", got, err)
	}
}

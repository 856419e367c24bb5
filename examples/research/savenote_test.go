package research

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk"
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
	out := runSaveNote(t, dir, `{"path":"notes/today.md","text":"# Findings\n"}`, func(_ context.Context, req *modtest.ApprovalRequest) (bool, error) {
		asked = append(asked, req.Reason)
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

// TestSaveNoteExisting: a note whose path holds a file asks the person
// what to do, with no approval question before: overwrite, append, keep
// both, or leave the file alone.
func TestSaveNoteExisting(t *testing.T) {
	choose := func(action string) map[string]any {
		return map[string]any{"existing": sdk.Answer{Action: sdk.Accept, Values: map[string]any{"action": action}}}
	}
	tests := []struct {
		name    string
		answers map[string]any
		want    string
		files   map[string]string
	}{
		{"overwrite", choose(Overwrite), "Saved the note as todo.txt (4 bytes), replacing the previous 7 bytes.",
			map[string]string{"todo.txt": "done"}},
		{"append", choose(Append), "Appended the note to todo.txt (11 bytes now, 7 bytes before).",
			map[string]string{"todo.txt": "keep medone"}},
		{"keep both", choose(KeepBoth), "Saved the note as todo-2.txt (4 bytes, a new file).",
			map[string]string{"todo.txt": "keep me", "todo-2.txt": "done"}},
		{"decline", map[string]any{"existing": sdk.Answer{Action: sdk.Decline}},
			"The note was not saved: the person chose to leave the existing todo.txt alone. Do not retry the same note.",
			map[string]string{"todo.txt": "keep me"}},
		{"dismiss", map[string]any{"existing": sdk.Answer{Action: sdk.Cancel}},
			"The note was not saved: the person dismissed the question about the existing todo.txt. Ask them before trying again.",
			map[string]string{"todo.txt": "keep me"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, map[string]string{"todo.txt": "keep me"})
			out := modtest.Run(t, generated(), "research_save_note", `{"path":"todo.txt","text":"done"}`,
				&modtest.Options{Workspace: dir, Answers: tt.answers})
			mustComplete(t, out)
			if out.Text != tt.want || out.ApprovalReason != "" {
				t.Errorf("got %q (approval %q), want %q and no approval asked", out.Text, out.ApprovalReason, tt.want)
			}
			if len(out.Questions) != 1 || out.Questions[0].Key != "existing" ||
				out.Questions[0].Message != "todo.txt already exists in the workspace (7 bytes). What should happen to it?" {
				t.Errorf("got questions %+v, want the one about todo.txt", out.Questions)
			}
			for name, want := range tt.files {
				if got := readFile(t, dir, name); got != want {
					t.Errorf("%s: got %q, want %q", name, got, want)
				}
			}
		})
	}
}

func TestSaveNoteExistingNobodyAsked(t *testing.T) {
	dir := workspace(t, map[string]string{"todo.txt": "keep me"})
	out := runSaveNote(t, dir, `{"path":"todo.txt","text":"gone"}`, nil)
	want := "Tool failed: todo.txt exists, and nobody could be asked whether to overwrite it, append to it or keep both (the question could not be asked: "
	if out.Status != modtest.StatusFailed || !strings.HasPrefix(out.Text, want) {
		t.Fatalf("got %s: %q, want failed: %q…", out.Status, out.Text, want)
	}
	if got := readFile(t, dir, "todo.txt"); got != "keep me" {
		t.Errorf("got file %q, want it untouched", got)
	}
}

func TestSaveNoteDenied(t *testing.T) {
	dir := workspace(t, nil)
	out := runSaveNote(t, dir, `{"path":"todo.txt","text":"gone"}`, modtest.Deny)
	if out.Status != modtest.StatusDenied {
		t.Fatalf("got %s: %s, want denied", out.Status, out.Text)
	}
	if !strings.HasPrefix(out.Text, "The person declined this call, so research_save_note did not run. They were asked: Create todo.txt") {
		t.Errorf("got %q, want the model told the person declined, with the reason", out.Text)
	}
	if _, err := os.Stat(filepath.Join(dir, "todo.txt")); !os.IsNotExist(err) {
		t.Errorf("got %v after a denial, want no file", err)
	}
}

func TestSaveNoteNeverAnswered(t *testing.T) {
	dir := workspace(t, nil)
	ctx, cancel := context.WithCancel(t.Context())
	asked := func(ctx context.Context, req *modtest.ApprovalRequest) (bool, error) {
		cancel() // the person walks away; the caller gives up
		return modtest.NeverAnswer(ctx, req)
	}
	out := modtest.Run(t, generated(), "research_save_note", `{"path":"a.md","text":"x"}`,
		&modtest.Options{Workspace: dir, Approver: asked, Context: ctx})
	if out.Status != modtest.StatusCancelled {
		t.Fatalf("got %s: %s, want cancelled", out.Status, out.Text)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.md")); !os.IsNotExist(err) {
		t.Errorf("got %v for the note of a cancelled call, want no file", err)
	}
}

func TestSaveNoteWithoutApprover(t *testing.T) {
	out := runSaveNote(t, workspace(t, nil), `{"path":"a.md","text":"x"}`, nil)
	if want := "Tool failed: tool research_save_note needs a person's approval and none could be asked: Create a.md"; out.Status != modtest.StatusFailed || !strings.HasPrefix(out.Text, want) {
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
		if out.Status != modtest.StatusFailed || !strings.Contains(out.Text, tt.want) || out.ApprovalReason != "" {
			t.Errorf("%s: got %s: %q (asked %q), want failed, unasked: %q", tt.input, out.Status, out.Text, out.ApprovalReason, tt.want)
		}
	}
	if got, err := os.Readlink(filepath.Join(dir, "link.md")); err != nil || got != "/etc/passwd" {
		t.Errorf("got link %q, %v, want it untouched", got, err)
	}
}

package words

import (
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/limits"
)

func TestApprovalQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		title       string
		destructive bool
		want        string
	}{
		{"", false, "save_note needs your approval: Overwrite a.md"},
		{"Save a note", false, "Save a note (save_note) needs your approval: Overwrite a.md"},
		{"", true, "save_note, which may delete or overwrite, needs your approval: Overwrite a.md"},
		{"Save a note", true, "Save a note (save_note), which may delete or overwrite, needs your approval: Overwrite a.md"},
	}
	for _, tt := range tests {
		if got := ApprovalQuestion("save_note", tt.title, "Overwrite a.md", tt.destructive); got != tt.want {
			t.Errorf("title %q, destructive %v: got %q, want %q", tt.title, tt.destructive, got, tt.want)
		}
	}
}

func TestBadAction(t *testing.T) {
	t.Parallel()
	tests := []struct{ got, want string }{
		{BadAction("t", 1, "wipe", UndeclaredAction([]string{"mark", "open"})),
			`tool t returned client action 1 ("wipe"): the tool declares no such kind (it declares "mark", "open")`},
		{BadAction("t", 0, "mark", UndeclaredAction(nil)), `tool t returned client action 0 ("mark"): the tool declares no client actions`},
		{BadAction("t", 0, "mark", InvalidParams([]string{"/a: x", "/b: y"})), "tool t returned client action 0 (\"mark\"): invalid params:\n  /a: x\n  /b: y"},
		{BadAction("t", 2, strings.Repeat("k", 300), InvalidParams([]string{"/a: x"})),
			`tool t returned client action 2 ("` + strings.Repeat("k", limits.MaxEcho) + `…"): invalid params: /a: x`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

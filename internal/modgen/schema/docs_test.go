package schema

import (
	"go/ast"
	"testing"
)

func TestCleanDoc(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		{"one line", []string{"// Limit is the most hits."}, "Limit is the most hits."},
		{"wrapped paragraph", []string{"// Limit is the most hits to return; later hits", "// are dropped."},
			"Limit is the most hits to return; later hits are dropped."},
		{"two paragraphs", []string{"// First part", "// goes on.", "//", "// Second part."},
			"First part goes on.\n\nSecond part."},
		{"directives dropped", []string{"// Input of a tool.", "//go:generate echo"}, "Input of a tool."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &ast.CommentGroup{}
			for _, l := range tt.lines {
				g.List = append(g.List, &ast.Comment{Text: l})
			}
			if got := cleanDoc(g); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	if got := cleanDoc(nil); got != "" {
		t.Errorf("got %q for no comment, want empty", got)
	}
}

func TestDropName(t *testing.T) {
	t.Parallel()
	tests := []struct{ doc, name, want string }{
		{"WordCountInput is the passage whose words are counted.", "WordCountInput", "The passage whose words are counted."},
		{"Limit caps the hits.", "Limit", "Caps the hits."},
		{"Options are the knobs.", "Options", "The knobs."},
		{"Counts words.", "Limit", "Counts words."},
		{"Limitless is a word.", "Limit", "Limitless is a word."},
		{"Limit", "Limit", "Limit"},
		// A plural verb needs its subject: the sentence stays as written.
		{"Options tune the scan.", "Options", "Options tune the scan."},
		{"Rows describe each row", "Rows", "Rows describe each row"},
		{"MarkParams say which line to mark.", "MarkParams", "MarkParams say which line to mark."},
		{"Limit must be positive.", "Limit", "Limit must be positive."},
		{"GreetInput says whom tasks_greet greets.", "GreetInput", "Says whom tasks_greet greets."},
		{"Status has the state.", "Status", "Has the state."},
		{"Items are this page's results.", "Items", "This page's results."},
		{"Transitive also lists the importers.", "Transitive", "Also lists the importers."},
		{"Rows only describe rows.", "Rows", "Rows only describe rows."},
		// A code name is never capitalized.
		{"NotesListInput is notes_list's input.", "NotesListInput", "NotesListInput is notes_list's input."},
		{"Acted is maxItems long.", "Acted", "Acted is maxItems long."},
		{"Path is os.Root's name.", "Path", "Path is os.Root's name."},
	}
	for _, tt := range tests {
		if got := dropName(tt.doc, tt.name); got != tt.want {
			t.Errorf("dropName(%q, %q) = %q, want %q", tt.doc, tt.name, got, tt.want)
		}
	}
}

package build

import (
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modkit/modkit/internal/modgen/load"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// whenWords are phrases that tell a model when to call a tool.
var whenWords = []string{"when", "use this", "use it", "call this", "call it", "use to", "use for", "if ", "before", "after", "in order to"}

// writerWords are name parts that suggest a tool changes something.
var writerWords = []string{"add", "apply", "create", "delete", "drop", "edit", "erase", "insert", "kill",
	"move", "patch", "post", "purge", "put", "remove", "rename", "replace", "reset", "rm", "run", "save",
	"send", "set", "update", "upload", "write"}

// writerWord returns the part of a snake_case tool name that suggests the
// tool writes, or "".
func writerWord(name string) string {
	for _, part := range strings.Split(name, "_") {
		if slices.Contains(writerWords, part) {
			return "_" + part
		}
	}
	return ""
}

// rules checks what only the Go source shows (a Run set, a View.Text)
// and warns on style: names, descriptions and labels a model or a person
// reads. The rules the host enforces are manifest's; see rulebook.
func (b *builder) rules(m *load.Mod) {
	for _, t := range m.Tools {
		name := t.Name
		if desc := strings.TrimSpace(t.Description.Value); desc != "" && !saysWhen(desc) {
			b.warnf(t.Description.Pos, "tool %s: the description does not say when to call the tool (\"Use this when …\")", name.Value)
		}
		if t.Annotations == nil && !name.Bad {
			if w := writerWord(name.Value); w != "" {
				b.warnf(name.Pos, "tool %s: the name says it may write (%q) but the tool declares no Annotations: say whether it is read-only, destructive, idempotent and open-world", name.Value, w)
			}
		}
		if !t.HasRun && !t.Client {
			b.errorf(t.Pos, "tool %s has no Run: set Run, or Client: true when only the client application runs it", name.Value)
		}
		if t.Rendered && t.HasRun && !t.HasText {
			b.errorf(t.Pos, "tool %s has no View.Text: it writes what the model reads from the result", name.Value)
		}
		switch act := t.Activity.Value; {
		case t.Activity.Bad:
		case act == "":
			b.warnf(t.Pos, "tool %s has no activity label, like \"Searching files…\"", name.Value)
		case !isPresentTense(act):
			b.warnf(t.Activity.Pos, "tool %s: activity label %q should be present tense with an ellipsis, like \"Searching files…\"", name.Value, act)
		}
	}
	for _, c := range m.Commands {
		if !c.HasRun {
			b.errorf(c.Pos, "command %s has no Run: set the function that does its work", c.ID.Value)
		}
	}
	for _, s := range m.Slash {
		if !s.HasRun && !s.HasPrompt {
			b.errorf(s.Pos, "slash command %s has no Run or Prompt: set the function that answers it", s.ID.Value)
		}
	}
	for _, h := range m.Hooks {
		if !h.HasRun {
			b.errorf(h.Pos, "hook before %q has no Run: set the function that inspects the action", h.BeforeAction.Value)
		}
	}
}

func saysWhen(desc string) bool {
	d := strings.ToLower(desc)
	for _, w := range whenWords {
		if strings.Contains(d, w) {
			return true
		}
	}
	return false
}

// isPresentTense reports whether label reads like "Counting words…".
func isPresentTense(label string) bool {
	if !strings.HasSuffix(label, "…") && !strings.HasSuffix(label, "...") {
		return false
	}
	first, _, _ := strings.Cut(strings.TrimRight(label, "…."), " ")
	return strings.HasSuffix(strings.ToLower(first), "ing")
}

// short formats a position as base file name, line and column.
func (b *builder) short(pos token.Pos) string {
	p := b.pkg.Fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}

package build

import (
	"fmt"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/manifest"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

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

// rules checks the mod's names, descriptions, hooks and agents.
func (b *builder) rules(m *load.Mod) {
	toolAt := map[string]token.Pos{}
	for _, t := range m.Tools {
		name := t.Name
		switch {
		case name.Bad:
		case name.Value == "":
			b.errorf(t.Pos, "tool has no Name")
		case !snakeCase.MatchString(name.Value):
			b.errorf(name.Pos, "tool name %q is not snake_case, like search_files", name.Value)
		}
		if first, ok := toolAt[name.Value]; ok && name.Value != "" {
			b.errorf(name.Pos, "duplicate tool name %q (first at %s)", name.Value, b.short(first))
		} else {
			toolAt[name.Value] = name.Pos
		}
		desc := strings.TrimSpace(t.Description.Value)
		if t.Description.Bad {
			// already reported
		} else if desc == "" {
			b.errorf(t.Description.Pos, "tool %s has an empty description: say what it returns and when to call it", name.Value)
		} else if !saysWhen(desc) {
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

	cmdAt := map[string]token.Pos{}
	for _, c := range m.Commands {
		switch {
		case c.ID.Value == "":
			b.errorf(c.Pos, "command has no ID")
		case strings.ContainsAny(c.ID.Value, " \t\n"):
			b.errorf(c.ID.Pos, "command id %q contains white space", c.ID.Value)
		}
		if first, ok := cmdAt[c.ID.Value]; ok && c.ID.Value != "" {
			b.errorf(c.ID.Pos, "duplicate command id %q (first at %s)", c.ID.Value, b.short(first))
		} else {
			cmdAt[c.ID.Value] = c.ID.Pos
		}
		if c.Title.Value == "" {
			b.warnf(c.Pos, "command %s has no title for people to pick it by", c.ID.Value)
		}
		if !c.HasRun {
			b.errorf(c.Pos, "command %s has no Run: set the function that does its work", c.ID.Value)
		}
	}

	slashAt := map[string]token.Pos{}
	for _, s := range m.Slash {
		switch {
		case s.ID.Value == "":
			b.errorf(s.Pos, "slash command has no ID")
		case strings.ContainsAny(s.ID.Value, " \t\n/"):
			b.errorf(s.ID.Pos, "slash command id %q must not contain white space or '/'", s.ID.Value)
		}
		if first, ok := slashAt[s.ID.Value]; ok && s.ID.Value != "" {
			b.errorf(s.ID.Pos, "duplicate slash command id %q (first at %s)", s.ID.Value, b.short(first))
		} else {
			slashAt[s.ID.Value] = s.ID.Pos
		}
		if strings.TrimSpace(s.Description.Value) == "" {
			b.errorf(s.Description.Pos, "slash command %s has an empty description", s.ID.Value)
		}
		if !s.HasRun && !s.HasPrompt {
			b.errorf(s.Pos, "slash command %s has no Run or Prompt: set the function that answers it", s.ID.Value)
		}
	}

	for _, h := range m.Hooks {
		target := h.BeforeAction.Value
		if !h.HasRun {
			b.errorf(h.Pos, "hook before %q has no Run: set the function that inspects the action", target)
		}
		if slices.Contains(manifest.HostActions(), target) {
			continue
		}
		if id, ok := strings.CutPrefix(target, "command:"); ok {
			if _, known := cmdAt[id]; known {
				continue
			}
			b.errorf(h.BeforeAction.Pos, "hook target %q names no command of this mod", target)
			continue
		}
		pos := h.BeforeAction.Pos
		if pos == token.NoPos {
			pos = h.Pos
		}
		b.errorf(pos, "hook target %q is neither a host action (%s) nor \"command:<id>\" of this mod",
			target, strings.Join(manifest.HostActions(), ", "))
	}

	for _, a := range m.Agents {
		// An agent may name tools of other mods: only its name is checked.
		if a.Name.Value == "" && !a.Name.Bad {
			b.errorf(a.Pos, "agent has no Name")
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

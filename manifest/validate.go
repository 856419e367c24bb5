package manifest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Error lists everything wrong with one manifest.
type Error struct {
	// ID is the mod's id, empty when the manifest has none.
	ID string
	// Problems name the offending entry and say what is wrong with it.
	Problems []Problem
}

// Problem is one thing wrong with a manifest.
type Problem struct {
	// Entry names the offending entry, like `tools[1] "Bad-Name"`, or the
	// top-level field; empty for the manifest as a whole.
	Entry string
	// Message says what is wrong.
	Message string
	// Rule names the [Rule] the entry breaks; empty when the problem is
	// with what a generator writes rather than what an author declares.
	Rule string
	// At locates the problem when Rule is set.
	At Location
	// First names the entry a duplicate repeats, like "tools[0]"; empty
	// when the problem is no duplicate. FirstAt locates it.
	First   string
	FirstAt Location
}

func (p Problem) String() string {
	msg := p.Message
	if p.First != "" {
		msg += ", first at " + p.First
	}
	if p.Entry == "" {
		return msg
	}
	return p.Entry + ": " + msg
}

// Error returns one line per problem, each starting "manifest <id>: ".
func (e *Error) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "manifest %s: %s", nameOr(e.ID), p)
	}
	return b.String()
}

// The forms of names, ids and hashes, each matched by its hand-written
// matcher in forms.
var (
	// snakeCase is the form of tool names: "research_word_count".
	snakeCase   = mustForm(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	modID       = mustForm(`^[a-z][a-z0-9_.-]*$`)
	commandID   = mustForm(`^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$`)
	slashID     = mustForm(`^[a-z][a-z0-9_-]*$`)
	agentName   = slashID
	formatForm  = mustForm(`^[0-9]+\.[0-9]+$`)
	sourceHashF = mustForm(`^sha256:[0-9a-f]{64}$`)
)

// IsSnakeCase reports whether name has the form tool names must have:
// lower-case letters and digits in words joined by single underscores,
// starting with a letter.
func IsSnakeCase(name string) bool { return snakeCase(name) }

// IsScopeToken reports whether s is an OAuth scope-token (RFC 6749 §3.3):
// one or more printable ASCII characters other than space, '"' and '\\'.
func IsScopeToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return s != ""
}

// Validate checks what the Go types cannot: the format version, the id, names
// and their uniqueness, descriptions, the tool kinds and schemas, hook
// targets, and the kinds of client action. It returns a *[Error] listing every problem, or nil. Agent
// allowlists may name tools of other mods, so they are not checked against
// this mod's tools.
func Validate(m *Manifest) error {
	v := validator{}
	switch {
	case m.FormatVersion == "":
		v.add("formatVersion", "missing")
	case !formatForm(m.FormatVersion):
		v.add("formatVersion", fmt.Sprintf("%q is not MAJOR.MINOR", m.FormatVersion))
	default:
		if err := checkVersion(m.FormatVersion); err != nil {
			v.add("formatVersion", err.Error())
		}
	}
	switch {
	case m.ID == "":
		v.rule(ruleModID, top("id"), "id", "missing")
	case !modID(m.ID):
		v.rule(ruleModID, top("id"), "id", fmt.Sprintf("%q must be lower-case letters, digits, '_', '.' or '-', starting with a letter", m.ID))
	}
	if m.GoPackage == "" {
		v.add("goPackage", "missing")
	}
	if !sourceHashF(m.SourceHash) {
		v.add("sourceHash", fmt.Sprintf("%q is not sha256:<64 hex digits>", m.SourceHash))
	}

	v.icons("", m.Icons)
	tools := map[string]int{}
	for i, t := range m.Tools {
		entry := entryOf("tools", i, t.Name)
		v.named(toolIdent, "tools", i, entry, t.Name, tools)
		v.described(ruleToolDescription, "tools", i, "description", entry, t.Description)
		v.icons(entry, t.Icons)
		v.scopes(ruleToolScope, "tools", i, entry, t.Scopes)
		switch t.Kind {
		case KindPlain:
			if len(t.ResultSchema) > 0 {
				v.add(entry, "a plain tool has no resultSchema")
			}
			if t.HasView {
				v.add(entry, "a plain tool has no view")
			}
		case KindRendered:
			if len(t.ResultSchema) == 0 {
				v.add(entry, "a rendered tool needs a resultSchema")
			}
		default:
			v.add(entry, fmt.Sprintf("kind %q is neither %q nor %q", t.Kind, KindPlain, KindRendered))
		}
		if !t.Runs.valid() {
			v.add(entry, fmt.Sprintf("runs %q is neither %q nor %q", t.Runs, RunsInClient, RunsEither))
		}
		if t.Task != "" && t.Task != TaskOptional && t.Task != TaskRequired {
			v.add(entry, fmt.Sprintf("task %q is neither %q nor %q", t.Task, TaskOptional, TaskRequired))
		}
		if len(t.InputSchema) == 0 {
			v.add(entry, "inputSchema is missing")
		} else if !isObject(t.InputSchema) {
			v.add(entry, "inputSchema must be a JSON object")
		}
		if len(t.ResultSchema) > 0 && !isObject(t.ResultSchema) {
			v.add(entry, "resultSchema must be a JSON object")
		}
		if a := t.Approval; a != nil {
			v.approval(entry, at("tools", i, "approval"), a)
		}
	}

	commands := map[string]int{}
	for i, c := range m.Commands {
		entry := entryOf("commands", i, c.ID)
		v.named(commandIdent, "commands", i, entry, c.ID, commands)
		v.described(ruleCommandTitle, "commands", i, "title", entry, c.Title)
		v.scopes(ruleCommandScope, "commands", i, entry, c.Scopes)
	}

	slashes := map[string]int{}
	for i, s := range m.SlashCommands {
		entry := entryOf("slashCommands", i, s.ID)
		v.named(slashIdent, "slashCommands", i, entry, s.ID, slashes)
		v.described(ruleSlashDescription, "slashCommands", i, "description", entry, s.Description)
		v.scopes(ruleSlashScope, "slashCommands", i, entry, s.Scopes)
		v.icons(entry, s.Icons)
	}

	for i, h := range m.Hooks {
		entry := entryOf("hooks", i, h.BeforeAction)
		if msg := checkHookTarget(h.BeforeAction, commands); msg != "" {
			v.rule(ruleHookTarget, at("hooks", i, "beforeAction"), entry, msg)
		}
	}

	agents := map[string]int{}
	for i, a := range m.Agents {
		entry := entryOf("agents", i, a.Name)
		v.named(agentIdent, "agents", i, entry, a.Name, agents)
		for k, name := range a.Tools {
			if name == "" {
				v.rule(ruleAgentTools, Location{List: "agents", Index: i, Field: "tools", Item: k}, entry, fmt.Sprintf("tools[%d] is empty", k))
			}
		}
	}

	v.validateClientActions(m)
	v.validateFeatures(m)
	v.validatePermissions(m.Permissions)

	if len(v.problems) == 0 {
		return nil
	}
	return &Error{ID: m.ID, Problems: v.problems}
}

// checkHookTarget returns what is wrong with a hook target, or "".
func checkHookTarget(target string, commands map[string]int) string {
	if target == "" {
		return "beforeAction is empty"
	}
	for _, a := range HostActions() {
		if target == a {
			return ""
		}
	}
	if id, ok := strings.CutPrefix(target, "command:"); ok {
		if _, known := commands[id]; known {
			return ""
		}
		return fmt.Sprintf("beforeAction names command %q, which this mod does not declare", id)
	}
	return fmt.Sprintf("beforeAction must be one of %s or \"command:<id>\" of this mod", strings.Join(quoteAll(HostActions()), ", "))
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

func isObject(raw []byte) bool {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '{':
			return true
		default:
			return false
		}
	}
	return false
}

type validator struct{ problems []Problem }

// add records a problem with what a generator writes.
func (v *validator) add(entry, msg string) {
	v.problems = append(v.problems, Problem{Entry: entry, Message: msg, At: Location{Item: -1}})
}

// rule records a declaration that breaks r.
func (v *validator) rule(r *Rule, loc Location, entry, msg string) {
	v.problems = append(v.problems, Problem{Entry: entry, Message: msg, Rule: r.Name, At: loc})
}

// dup records a declaration that repeats the one at first.
func (v *validator) dup(r *Rule, loc Location, entry, msg string, first Location) {
	v.problems = append(v.problems, Problem{Entry: entry, Message: msg, Rule: r.Name, At: loc,
		First: fmt.Sprintf("%s[%d]", first.List, first.Index), FirstAt: first})
}

// at locates field of entry i of list.
func at(list string, i int, field string) Location {
	return Location{List: list, Index: i, Field: field, Item: -1}
}

// top locates a top-level field.
func top(field string) Location { return Location{Field: field, Item: -1} }

// approval checks a tool's approval rule.
func (v *validator) approval(entry string, loc Location, a *Approval) {
	switch a.When {
	case ApprovalAlways:
		if strings.TrimSpace(a.Reason) == "" {
			v.rule(ruleToolApproval, loc, entry, "approval always needs a reason")
		}
	case ApprovalByInput:
		if a.Reason != "" {
			v.rule(ruleToolApproval, loc, entry, "approval byInput has no reason: the mod gives one per call")
		}
	default:
		v.rule(ruleToolApproval, loc, entry, fmt.Sprintf("approval when %q is neither %q nor %q", a.When, ApprovalAlways, ApprovalByInput))
	}
}

// scopes checks the scopes of entry, the index-th of list, by rule: each
// a scope-token, none twice.
func (v *validator) scopes(rule *Rule, list string, index int, entry string, scopes []string) {
	for k, s := range scopes {
		where := Location{List: list, Index: index, Field: "scopes", Item: k}
		switch {
		case !IsScopeToken(s):
			v.rule(rule, where, entry, fmt.Sprintf("scope %q is not a scope-token: printable ASCII but space, '\"' and '\\', at least one", s))
		case slices.Index(scopes, s) < k:
			v.rule(rule, where, entry, fmt.Sprintf("scopes names %q twice", s))
		}
	}
}

// entryOf names the i-th entry of list by its name, like
// `tools[1] "Bad-Name"` (fmt's %q is strconv.Quote).
func entryOf(list string, i int, name string) string {
	return list + "[" + strconv.Itoa(i) + "] " + strconv.Quote(name)
}

package modchange

import (
	"slices"
	"strings"

	"github.com/modkit/modkit/manifest"
)

// Kind is what a change does.
type Kind int

// The kinds of change, in the order Diff lists them.
const (
	// ToolAdded: the version has a tool the accepted one lacks.
	ToolAdded Kind = iota
	// ToolRemoved: the version lacks a tool the accepted one has.
	ToolRemoved
	// Widened: the version's process may do what the accepted one's may
	// not.
	Widened
	// Narrowed: the version's process gives up what the accepted one's
	// may do.
	Narrowed
	// Loosened: a tool's calls ask a person less often than they did.
	Loosened
	// Tightened: a tool's calls ask a person more often than they did.
	Tightened
)

var kindWords = map[Kind]string{
	ToolAdded:   "adds",
	ToolRemoved: "removes",
	Widened:     "widens:",
	Narrowed:    "narrows:",
	Loosened:    "loosens approval:",
	Tightened:   "tightens approval:",
}

// Change is one thing a version changes.
type Change struct {
	Kind Kind
	// What is what changed, in words: "tool weather_alerts", "connects to
	// any host, not only api.weather.example:443", "weather_delete no
	// longer asks a person before its calls".
	What string
}

// String returns the change as a line: its kind's verb and What.
func (c Change) String() string { return kindWords[c.Kind] + " " + c.What }

// NeedsConsent reports whether the change lets the mod do more without a
// person's say: a permission widened or an approval rule loosened.
func (c Change) NeedsConsent() bool { return c.Kind == Widened || c.Kind == Loosened }

// AnyNeedsConsent reports whether one of changes needs consent.
func AnyNeedsConsent(changes []Change) bool {
	return slices.ContainsFunc(changes, Change.NeedsConsent)
}

// Diff returns what next changes against old, the version a person
// accepted, in Kind order: tools, permissions, approval rules. With no old
// (a mod new to the person), it returns the permissions next widens beyond
// the least every mod gets, the one thing to consent to before a first
// run; its tools are for a listing of what it offers.
func Diff(old, next *manifest.Manifest) []Change {
	if old == nil {
		return Permissions(nil, next.Permissions)
	}
	var changes []Change
	oldTools, nextTools := toolsByName(old), toolsByName(next)
	for _, t := range next.Tools {
		if _, ok := oldTools[t.Name]; !ok {
			changes = append(changes, Change{ToolAdded, "tool " + t.Name})
		}
	}
	for _, t := range old.Tools {
		if _, ok := nextTools[t.Name]; !ok {
			changes = append(changes, Change{ToolRemoved, "tool " + t.Name})
		}
	}
	changes = append(changes, Permissions(old.Permissions, next.Permissions)...)
	for _, t := range next.Tools {
		if o, ok := oldTools[t.Name]; ok {
			if c, changed := approvalChange(t.Name, o.Approval, t.Approval); changed {
				changes = append(changes, c)
			}
		}
	}
	slices.SortStableFunc(changes, func(a, b Change) int { return int(a.Kind) - int(b.Kind) })
	return changes
}

func toolsByName(m *manifest.Manifest) map[string]*manifest.Tool {
	out := make(map[string]*manifest.Tool, len(m.Tools))
	for i := range m.Tools {
		out[m.Tools[i].Name] = &m.Tools[i]
	}
	return out
}

// Permissions returns the permissions next widens and narrows against
// old, kind by kind: writing the workspace, connect targets, programs,
// paths read, environment variables; nil for either is no permission.
func Permissions(old, next *manifest.Permissions) []Change {
	if old == nil {
		old = &manifest.Permissions{}
	}
	if next == nil {
		next = &manifest.Permissions{}
	}
	var changes []Change
	switch {
	case next.WriteWorkspace && !old.WriteWorkspace:
		changes = append(changes, Change{Widened, "writes the workspace"})
	case old.WriteWorkspace && !next.WriteWorkspace:
		changes = append(changes, Change{Narrowed, "no longer writes the workspace"})
	}
	changes = append(changes, listChanges("connects to", "any host", old.Connect, next.Connect, exact)...)
	changes = append(changes, listChanges("runs", "any program", old.Run, next.Run, exact)...)
	changes = append(changes, listChanges("reads", "", old.Read, next.Read, under)...)
	changes = append(changes, listChanges("receives", "", old.Env, next.Env, exact)...)
	return changes
}

// exact reports whether a list's entry allows v: it is v.
func exact(entry, v string) bool { return entry == v }

// under reports whether a readable path allows reading v: v is the path or
// below it.
func under(entry, v string) bool { return v == entry || strings.HasPrefix(v, entry+"/") }

// listChanges compares one kind of permission list; verb words it
// ("connects to"), anyWords words manifest.Any for the kinds that allow it
// ("any host"), covers says whether an entry allows a value.
func listChanges(verb, anyWords string, old, next []string, covers func(entry, v string) bool) []Change {
	isAny := func(list []string) bool { return anyWords != "" && slices.Contains(list, manifest.Any) }
	allows := func(list []string, v string) bool {
		return isAny(list) || slices.ContainsFunc(list, func(entry string) bool { return covers(entry, v) })
	}
	var changes []Change
	switch {
	case isAny(next) && isAny(old):
		return nil
	case isAny(next):
		what := verb + " " + anyWords
		if len(old) > 0 {
			what += ", not only " + strings.Join(old, ", ")
		}
		return []Change{{Widened, what}}
	case isAny(old):
		what := verb + " only " + strings.Join(next, ", ")
		if len(next) == 0 {
			what = "no longer " + verb + " " + anyWords
		}
		return []Change{{Narrowed, what}}
	}
	for _, v := range next {
		if !allows(old, v) {
			changes = append(changes, Change{Widened, verb + " " + v})
		}
	}
	for _, v := range old {
		if !allows(next, v) {
			changes = append(changes, Change{Narrowed, "no longer " + verb + " " + v})
		}
	}
	return changes
}

// strictness orders approval rules: how many of a tool's calls ask a
// person.
func strictness(a *manifest.Approval) int {
	switch {
	case a == nil:
		return 0
	case a.When == manifest.ApprovalAlways:
		return 2
	}
	return 1
}

// approvalWords says which calls of tool ask a person under a rule.
func approvalWords(a *manifest.Approval) string {
	switch strictness(a) {
	case 2:
		return "every call"
	case 1:
		return "the calls the mod picks"
	}
	return "no call"
}

// approvalChange compares a tool's approval rules.
func approvalChange(tool string, old, next *manifest.Approval) (Change, bool) {
	o, n := strictness(old), strictness(next)
	switch {
	case n == o:
		return Change{}, false
	case n == 0:
		return Change{Loosened, tool + " no longer asks a person before its calls (it asked before " + approvalWords(old) + ")"}, true
	case n < o:
		return Change{Loosened, tool + " asks a person before " + approvalWords(next) + ", not every call"}, true
	}
	what := tool + " asks a person before " + approvalWords(next)
	if o > 0 {
		what += " (it asked before " + approvalWords(old) + ")"
	}
	return Change{Tightened, what}, true
}

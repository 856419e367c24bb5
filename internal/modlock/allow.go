package modlock

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/modkit/modkit/manifest"
)

// The allow lines' kinds, in the order a block lists them.
const (
	allowNone    = "none"
	allowWrite   = "write workspace"
	allowConnect = "connect"
	allowRun     = "run"
	allowRead    = "read"
	allowEnv     = "env"
)

// AllowLines returns the values of the allow lines that record p, in the
// order a block lists them: "write workspace", then "connect HOST:PORT",
// "run PROGRAM", "read PATH" and "env NAME", each kind sorted, a value
// quoted as a Go string when it holds a space, a quote or a character
// that does not print; ["none"] when p grants nothing beyond the least.
func AllowLines(p *manifest.Permissions) []string {
	if p.IsZero() {
		return []string{allowNone}
	}
	var lines []string
	if p.WriteWorkspace {
		lines = append(lines, allowWrite)
	}
	for _, kind := range []struct {
		name   string
		values []string
	}{{allowConnect, p.Connect}, {allowRun, p.Run}, {allowRead, p.Read}, {allowEnv, p.Env}} {
		for _, v := range sortedCopy(kind.values) {
			lines = append(lines, kind.name+" "+quoteValue(v))
		}
	}
	return lines
}

func sortedCopy(list []string) []string {
	out := slices.Clone(list)
	slices.Sort(out)
	return out
}

// quoteValue returns v bare when it is one plain word, else as a quoted
// Go string.
func quoteValue(v string) string {
	plain := v != "" && !strings.HasPrefix(v, `"`) && strings.IndexFunc(v, func(r rune) bool {
		return unicode.IsSpace(r) || !unicode.IsPrint(r) || r == '"'
	}) < 0
	if plain {
		return v
	}
	return strconv.Quote(v)
}

// canonical returns a copy of p as a lock records it: each list sorted, an
// empty list nil; nil p is no permission.
func canonical(p *manifest.Permissions) *manifest.Permissions {
	c := &manifest.Permissions{}
	if p == nil {
		return c
	}
	c.WriteWorkspace = p.WriteWorkspace
	for _, l := range []struct{ to, from *[]string }{{&c.Connect, &p.Connect}, {&c.Run, &p.Run}, {&c.Read, &p.Read}, {&c.Env, &p.Env}} {
		if len(*l.from) > 0 {
			*l.to = sortedCopy(*l.from)
		}
	}
	return c
}

// addAllow adds to p the permission an allow line's value names; it
// reports what is wrong with the value.
func addAllow(p *manifest.Permissions, value string) error {
	kind, rest, _ := strings.Cut(value, " ")
	rest = strings.TrimSpace(rest)
	if kind == "write" {
		if rest != "workspace" {
			return fmt.Errorf("want allow write workspace, got allow %s", value)
		}
		p.WriteWorkspace = true
		return nil
	}
	var list *[]string
	switch kind {
	case allowConnect:
		list = &p.Connect
	case allowRun:
		list = &p.Run
	case allowRead:
		list = &p.Read
	case allowEnv:
		list = &p.Env
	default:
		return fmt.Errorf("unknown permission %q; want none, write workspace, connect, run, read or env", kind)
	}
	v, err := unquoteValue(rest)
	if err != nil {
		return fmt.Errorf("allow %s: %v", kind, err)
	}
	if slices.Contains(*list, v) {
		return fmt.Errorf("allow %s %s given twice", kind, quoteValue(v))
	}
	*list = append(*list, v)
	return nil
}

// unquoteValue reads an allow line's value: one plain word, or a quoted Go
// string.
func unquoteValue(s string) (string, error) {
	switch {
	case s == "":
		return "", fmt.Errorf("no value")
	case strings.HasPrefix(s, `"`):
		v, err := strconv.Unquote(s)
		if err != nil {
			return "", fmt.Errorf("%s is not one quoted string", s)
		}
		if v == "" {
			return "", fmt.Errorf("empty value")
		}
		return v, nil
	case strings.ContainsFunc(s, unicode.IsSpace):
		return "", fmt.Errorf("%q is more than one value; quote a value that holds spaces", s)
	}
	return s, nil
}

// PermissionError is the error of a lock block whose allow lines disagree
// with the permissions its mod's manifest declares; it wraps ErrMismatch.
type PermissionError struct {
	// Entry is the locked mod.
	Entry Entry
	// Allow is the allow line's value that disagrees: "connect *".
	Allow string
	// Declared reports whether the manifest declares the permission, which
	// no line of the block allows; otherwise the block allows it on line
	// Line, and the manifest does not declare it.
	Declared bool
	// Line is the allow line's number in the lock file, or the block's
	// first line when Declared; 0 when the entry was not read from a file.
	Line int
}

func (e *PermissionError) Error() string {
	at := ""
	if e.Line > 0 {
		at = fmt.Sprintf("line %d, ", e.Line)
	}
	if e.Declared {
		if e.Line > 0 {
			at = fmt.Sprintf("its block at line %d", e.Line)
		} else {
			at = "its block"
		}
		return fmt.Sprintf("%s: its manifest declares %s, but %s has no line allow %s", e.Entry.String(), e.Allow, at, e.Allow)
	}
	return fmt.Sprintf("%s: %sallow %s: its manifest declares no such permission", e.Entry.String(), at, e.Allow)
}

func (e *PermissionError) Unwrap() error { return ErrMismatch }

// checkAllowed compares the entry's allow lines with the permissions its
// mod's manifest declares; an entry without allow lines (a lock written
// before they were) is not checked.
func checkAllowed(e Entry, declared *manifest.Permissions) error {
	if e.Permissions == nil {
		return nil
	}
	locked, want := AllowLines(e.Permissions), AllowLines(declared)
	for _, l := range locked {
		if !slices.Contains(want, l) {
			return &PermissionError{Entry: e, Allow: l, Line: e.allowLine[l]}
		}
	}
	for _, w := range want {
		if !slices.Contains(locked, w) {
			return &PermissionError{Entry: e, Allow: w, Declared: true, Line: e.line}
		}
	}
	return nil
}

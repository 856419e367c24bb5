package apilist

import (
	"path"
	"regexp"
	"strings"
)

// NameOf returns the name a line of an API listing is about, as a reader
// writes it: "modtest.Completed" for a constant, "modtest.Outcome.Text"
// for a field, "modtest.Outcome.ViewState" for a method. It is "" for a
// line that is not one of a listing.
func NameOf(line string) string {
	rest, ok := strings.CutPrefix(line, "pkg ")
	if !ok {
		return ""
	}
	pkgPath, decl, ok := strings.Cut(rest, ", ")
	if !ok {
		return ""
	}
	kind, decl, _ := strings.Cut(decl, " ")
	name := ""
	switch kind {
	case "const", "var", "func":
		name = ident(decl)
	case "type":
		name = ident(decl)
		if _, member, ok := strings.Cut(decl, ", "); ok && member != "unexported methods" {
			if embedded, ok := strings.CutPrefix(member, "embedded "); ok {
				name += "." + embeddedName(embedded)
			} else {
				name += "." + ident(member)
			}
		}
	case "method":
		recv, m, ok := strings.Cut(decl, ") ")
		if !ok {
			return ""
		}
		name = strings.TrimPrefix(strings.TrimPrefix(recv, "("), "*") + "." + ident(m)
	default:
		return ""
	}
	if name == "" {
		return ""
	}
	return path.Base(pkgPath) + "." + name
}

// ident returns the identifier s starts with.
func ident(s string) string {
	if i := strings.IndexAny(s, " [(,="); i >= 0 {
		return s[:i]
	}
	return s
}

// embeddedName returns the field name of an embedded type as a listing
// writes it: "*github.com/x/p.T[int]" is T.
func embeddedName(t string) string {
	t = strings.TrimPrefix(t, "*")
	t, _, _ = strings.Cut(t, "[")
	t = path.Base(t)
	if _, name, ok := strings.Cut(t, "."); ok {
		return name
	}
	return t
}

// Names reports whether text names name as a whole: "modtest.Completed"
// in "`modtest.Completed` is now …", not in "modtest.CompletedAt" nor in
// "xmodtest.Completed".
func Names(text, name string) bool {
	re := regexp.MustCompile(`(?:^|[^\w.])` + regexp.QuoteMeta(name) + `(?:[^\w.]|\.(?:[^\w]|$)|$)`)
	return re.MatchString(text)
}

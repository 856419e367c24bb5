package manifest

import (
	"regexp"
	"strings"
	"testing"
)

// formSamples are strings at the edges of every form.
var formSamples = []string{
	"", "a", "A", "1", "_", ".", "-", "a_b", "a__b", "a_", "_a", "a1_2b", "ab_c_d", "a-b", "a.b", "a..b", "a.", ".a",
	"a.b-c_d", "a.1b", "a.B", "research.stats", "1.0", "10.25", "1.", ".1", "1..0", "1.0.0", "a1.0", "1.0\n",
	"a\n", "\na", "é", "aé", "a\xff", "sha256:" + strings.Repeat("0", 64), "sha256:" + strings.Repeat("f", 64),
	"sha256:" + strings.Repeat("F", 64), "sha256:" + strings.Repeat("0", 63), "sha256:" + strings.Repeat("0", 65),
	"sha256:" + strings.Repeat("0", 63) + "g", "SHA256:" + strings.Repeat("0", 64), "read:files", "a b", `a"b`,
	`a\b`, "!#[]~", "\x7f", "\x20", "\x21",
}

func checkForm(t *testing.T, expr string, f form, s string) {
	t.Helper()
	want := regexp.MustCompile(expr).MatchString(s)
	if got := f.str(s); got != want {
		t.Errorf("form %s of %q: got %v, regexp %v", expr, s, got, want)
	}
	if got := f.bytes([]byte(s)); got != want {
		t.Errorf("form %s of []byte %q: got %v, regexp %v", expr, s, got, want)
	}
}

// TestForms compares every hand-written form with package regexp on
// strings at its edges, and checks that the schema's patterns that have
// one use it.
func TestForms(t *testing.T) {
	t.Parallel()
	for expr, f := range forms {
		for _, s := range formSamples {
			checkForm(t, expr, f, s)
		}
	}
	used := 0
	var walk func(n *schemaNode, seen map[*schemaNode]bool)
	walk = func(n *schemaNode, seen map[*schemaNode]bool) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if n.match != nil {
			used++
			if n.pattern != nil {
				t.Errorf("a pattern with a hand-written form: got a compiled regexp too, want none")
			}
		}
		if n.ref != nil {
			walk(*n.ref, seen)
		}
		walk(n.items, seen)
		for _, p := range n.properties {
			walk(p, seen)
		}
	}
	walk(acceptNode(), map[*schemaNode]bool{})
	if used == 0 {
		t.Error("no pattern of the schema uses a hand-written form")
	}
}

// FuzzForms compares every hand-written form with package regexp.
func FuzzForms(f *testing.F) {
	for _, s := range formSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for expr, fm := range forms {
			checkForm(t, expr, fm, s)
		}
	})
}

package manifest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// plain drops what locates problems, for tests that compare wording.
func plain(ps []Problem) []Problem {
	out := make([]Problem, len(ps))
	for i, p := range ps {
		out[i] = Problem{Entry: p.Entry, Message: p.String()[len(p.Entry)+len(": "):]}
		if p.Entry == "" {
			out[i].Message = p.String()
		}
	}
	return out
}

// TestRulesLocate checks that a broken rule is reported with its name and
// the entry's location, which modgen maps back to the source.
func TestRulesLocate(t *testing.T) {
	t.Parallel()
	m := sample()
	m.Commands = append(m.Commands, Command{ID: "Stats"})
	err := Validate(m)
	var me *Error
	if !errors.As(err, &me) {
		t.Fatalf("got %v, want *Error", err)
	}
	i := len(m.Commands) - 1
	want := []Problem{
		{Entry: me.Problems[0].Entry, Message: `id must be lower-case words joined by '.', like "research.stats"`, Rule: "command-id", At: Location{List: "commands", Index: i, Field: "id", Item: -1}},
		{Entry: me.Problems[0].Entry, Message: "title is empty", Rule: "command-title", At: Location{List: "commands", Index: i, Field: "title", Item: -1}},
	}
	if len(me.Problems) != len(want) {
		t.Fatalf("got problems %v, want %v", me.Problems, want)
	}
	for k := range want {
		if me.Problems[k] != want[k] {
			t.Errorf("problem %d: got %+v, want %+v", k, me.Problems[k], want[k])
		}
	}
}

func TestRulesNamedOnce(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, r := range Rules() {
		if r.Name == "" || r.Doc == "" {
			t.Errorf("rule %+v: want a name and a doc", r)
		}
		if seen[r.Name] {
			t.Errorf("rule %s declared twice", r.Name)
		}
		seen[r.Name] = true
	}
}

func TestToolScopes(t *testing.T) {
	t.Parallel()
	m := sample()
	m.Tools[0].Scopes = []string{"notes.write", "https://api.example/notes:write", "notes write", "", `a"b`, "notes.write", "é"}
	err := Validate(m)
	var me *Error
	if !errors.As(err, &me) {
		t.Fatalf("got %v, want *Error", err)
	}
	var got []string
	for _, p := range me.Problems {
		if p.Rule != "tool-scope" || p.At.Field != "scopes" {
			t.Errorf("got problem %+v, want rule tool-scope on scopes", p)
		}
		got = append(got, fmt.Sprintf("%d %s", p.At.Item, p.String()[len(p.Entry)+2:]))
	}
	want := []string{
		`2 scope "notes write" is not a scope-token: printable ASCII but space, '"' and '\', at least one`,
		`3 scope "" is not a scope-token: printable ASCII but space, '"' and '\', at least one`,
		`4 scope "a\"b" is not a scope-token: printable ASCII but space, '"' and '\', at least one`,
		`5 scopes names "notes.write" twice`,
		`6 scope "é" is not a scope-token: printable ASCII but space, '"' and '\', at least one`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

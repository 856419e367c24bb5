package modchange

import (
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/manifest"
)

func lines(changes []Change) []string {
	var out []string
	for _, c := range changes {
		out = append(out, c.String())
	}
	return out
}

func TestPermissions(t *testing.T) {
	tests := []struct {
		name      string
		old, next *manifest.Permissions
		want      []string
		consent   bool
	}{
		{"both none", nil, &manifest.Permissions{}, nil, false},
		{"the same, reordered", &manifest.Permissions{Connect: []string{"a:1", "b:2"}}, &manifest.Permissions{Connect: []string{"b:2", "a:1"}}, nil, false},
		{"from none, every kind", nil, &manifest.Permissions{WriteWorkspace: true, Connect: []string{"127.0.0.1:9099"}, Run: []string{"git"}, Read: []string{"$HOME/.config"}, Env: []string{"TOKEN"}},
			[]string{"widens: writes the workspace", "widens: connects to 127.0.0.1:9099", "widens: runs git", "widens: reads $HOME/.config", "widens: receives TOKEN"}, true},
		{"to any", &manifest.Permissions{Connect: []string{"127.0.0.1:9099"}}, &manifest.Permissions{Connect: []string{"*"}, Run: []string{"*"}},
			[]string{"widens: connects to any host, not only 127.0.0.1:9099", "widens: runs any program"}, true},
		{"any stays any", &manifest.Permissions{Run: []string{"*"}}, &manifest.Permissions{Run: []string{"*"}}, nil, false},
		{"from any to some", &manifest.Permissions{Connect: []string{"*"}, Run: []string{"*"}}, &manifest.Permissions{Connect: []string{"a:1"}},
			[]string{"narrows: connects to only a:1", "narrows: no longer runs any program"}, false},
		{"one endpoint for another", &manifest.Permissions{Connect: []string{"a:1"}}, &manifest.Permissions{Connect: []string{"b:2"}},
			[]string{"widens: connects to b:2", "narrows: no longer connects to a:1"}, true},
		{"a path below one read already", &manifest.Permissions{Read: []string{"$HOME/.config"}}, &manifest.Permissions{Read: []string{"$HOME/.config/weather"}},
			[]string{"narrows: no longer reads $HOME/.config"}, false},
		{"a path beside, not below", &manifest.Permissions{Read: []string{"/opt/a"}}, &manifest.Permissions{Read: []string{"/opt/a", "/opt/ab"}},
			[]string{"widens: reads /opt/ab"}, true},
		{"a path above", &manifest.Permissions{Read: []string{"/opt/a/b"}}, &manifest.Permissions{Read: []string{"/opt/a"}},
			[]string{"widens: reads /opt/a"}, true},
		{"gives up everything", &manifest.Permissions{WriteWorkspace: true, Env: []string{"TOKEN"}}, nil,
			[]string{"narrows: no longer writes the workspace", "narrows: no longer receives TOKEN"}, false},
	}
	for _, tt := range tests {
		got := Permissions(tt.old, tt.next)
		if !slices.Equal(lines(got), tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, lines(got), tt.want)
		}
		if c := AnyNeedsConsent(got); c != tt.consent {
			t.Errorf("%s: needs consent: got %v, want %v", tt.name, c, tt.consent)
		}
	}
}

func tool(name string, when manifest.ApprovalWhen) manifest.Tool {
	t := manifest.Tool{Name: name}
	if when != "" {
		t.Approval = &manifest.Approval{When: when}
	}
	return t
}

func TestDiff(t *testing.T) {
	old := &manifest.Manifest{
		Tools:       []manifest.Tool{tool("a_get", manifest.ApprovalAlways), tool("a_put", manifest.ApprovalByInput), tool("a_list", ""), tool("a_old", "")},
		Permissions: &manifest.Permissions{Connect: []string{"127.0.0.1:9099"}},
	}
	next := &manifest.Manifest{
		Tools:       []manifest.Tool{tool("a_get", manifest.ApprovalByInput), tool("a_put", ""), tool("a_list", manifest.ApprovalAlways), tool("a_run", "")},
		Permissions: &manifest.Permissions{Connect: []string{"*"}, Run: []string{"*"}},
	}
	want := []string{
		"adds tool a_run",
		"removes tool a_old",
		"widens: connects to any host, not only 127.0.0.1:9099",
		"widens: runs any program",
		"loosens approval: a_get asks a person before the calls the mod picks, not every call",
		"loosens approval: a_put no longer asks a person before its calls (it asked before the calls the mod picks)",
		"tightens approval: a_list asks a person before every call",
	}
	if got := lines(Diff(old, next)); !slices.Equal(got, want) {
		t.Errorf("Diff:\ngot  %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	if got := Diff(old, old); len(got) != 0 {
		t.Errorf("Diff of a manifest with itself: got %q, want none", lines(got))
	}
	// Only an approval rule loosened still needs consent.
	loose := old.Clone()
	loose.Tools[0].Approval = nil
	if got := Diff(old, loose); !AnyNeedsConsent(got) {
		t.Errorf("Diff with a_get's approval dropped: got %q, which needs no consent; want it to", lines(got))
	}
	// Tools added alone need none.
	more := old.Clone()
	more.Tools = append(more.Tools, tool("a_new", ""))
	if got := Diff(old, more); AnyNeedsConsent(got) || len(got) != 1 {
		t.Errorf("Diff with a tool added: got %q, want one change needing no consent", lines(got))
	}
	// A mod new to the person: only what its permissions widen.
	if got, want := lines(Diff(nil, next)), []string{"widens: connects to any host", "widens: runs any program"}; !slices.Equal(got, want) {
		t.Errorf("Diff from nothing: got %q, want %q", got, want)
	}
}

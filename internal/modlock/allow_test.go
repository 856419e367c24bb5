package modlock

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/manifest"
)

func TestAllowLines(t *testing.T) {
	tests := []struct {
		name string
		p    *manifest.Permissions
		want []string
	}{
		{"nil", nil, []string{"none"}},
		{"zero", &manifest.Permissions{}, []string{"none"}},
		{"every kind, sorted", &manifest.Permissions{
			WriteWorkspace: true,
			Connect:        []string{"db.internal:5432", "127.0.0.1:9099"},
			Run:            []string{"*"},
			Read:           []string{"$HOME/.config/weather", "/opt/my data"},
			Env:            []string{"TOKEN", "API_KEY"},
		}, []string{
			"write workspace",
			"connect 127.0.0.1:9099", "connect db.internal:5432",
			"run *",
			"read $HOME/.config/weather", `read "/opt/my data"`,
			"env API_KEY", "env TOKEN",
		}},
	}
	for _, tt := range tests {
		if got := AllowLines(tt.p); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// block returns a lock file of one block pinning example.com/a, with the
// allow lines given.
func block(allow ...string) string {
	lines := []string{"mod example.com/a", "\tmodule   example.com/a v1.0.0", "\tzip      " + h1A, "\tgo.mod   " + h1B, "\tmanifest " + sha}
	for _, a := range allow {
		lines = append(lines, "\tallow    "+a)
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestParseAllow(t *testing.T) {
	tests := []struct {
		name  string
		allow []string
		want  *manifest.Permissions
	}{
		{"no allow line", nil, nil},
		{"none", []string{"none"}, &manifest.Permissions{}},
		{"every kind", []string{"env TOKEN", "write workspace", `read "/opt/my data"`, "connect *", "run git", "run /usr/bin/make"},
			&manifest.Permissions{WriteWorkspace: true, Connect: []string{"*"}, Run: []string{"/usr/bin/make", "git"}, Read: []string{"/opt/my data"}, Env: []string{"TOKEN"}}},
	}
	for _, tt := range tests {
		entries, err := Parse("mods.lock", []byte(block(tt.allow...)))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		got := entries[0].Permissions
		if (got == nil) != (tt.want == nil) || got != nil && !slices.Equal(AllowLines(got), AllowLines(tt.want)) {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestParseAllowErrors(t *testing.T) {
	tests := []struct {
		name  string
		allow []string
		want  string
	}{
		{"unknown kind", []string{"listen :80"}, `mods.lock:6: unknown permission "listen"; want none, write workspace, connect, run, read or env`},
		{"no value", []string{"run"}, "mods.lock:6: allow run: no value"},
		{"two values", []string{"read /a /b"}, `mods.lock:6: allow read: "/a /b" is more than one value; quote a value that holds spaces`},
		{"bad quote", []string{`read "/a`}, `mods.lock:6: allow read: "/a is not one quoted string`},
		{"empty quote", []string{`env ""`}, "mods.lock:6: allow env: empty value"},
		{"write what", []string{"write home"}, "mods.lock:6: want allow write workspace, got allow write home"},
		{"twice", []string{"run git", `run "git"`}, "mods.lock:7: allow run git given twice"},
		{"none beside others", []string{"run git", "none"}, "mods.lock:7: allow none must be the block's only allow line"},
		{"after none", []string{"none", "run git"}, "mods.lock:7: allow none must be the block's only allow line"},
		{"not an endpoint", []string{"connect db"}, `mods.lock:1: mod example.com/a: allow: permissions.connect[0] "db": not host:port`},
		{"relative read", []string{"read etc"}, `mods.lock:1: mod example.com/a: allow: permissions.read[0] "etc": must be absolute`},
		{"any beside others", []string{"run *", "run git"}, `mods.lock:1: mod example.com/a: allow: permissions.run: "*" allows everything`},
	}
	for _, tt := range tests {
		_, err := Parse("mods.lock", []byte(block(tt.allow...)))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}

func TestCheckAllowed(t *testing.T) {
	parse := func(allow ...string) Entry {
		t.Helper()
		entries, err := Parse("mods.lock", []byte(block(allow...)))
		if err != nil {
			t.Fatal(err)
		}
		return entries[0]
	}
	declared := &manifest.Permissions{Connect: []string{"127.0.0.1:9099"}, Env: []string{"TOKEN"}}
	tests := []struct {
		name  string
		entry Entry
		want  string // "" for no error
	}{
		{"the same", parse("env TOKEN", "connect 127.0.0.1:9099"), ""},
		{"no allow lines", parse(), ""},
		{"widened by hand", parse("connect *", "env TOKEN"), "example.com/a@v1.0.0: line 6, allow connect *: its manifest declares no such permission"},
		{"a line removed", parse("env TOKEN"), "example.com/a@v1.0.0: its manifest declares connect 127.0.0.1:9099, but its block at line 1 has no line allow connect 127.0.0.1:9099"},
		{"none", parse("none"), "example.com/a@v1.0.0: line 6, allow none: its manifest declares no such permission"},
	}
	for _, tt := range tests {
		err := checkAllowed(tt.entry, declared)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: got %v, want no error", tt.name, err)
		case tt.want != "" && (err == nil || err.Error() != tt.want):
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		case tt.want != "" && !errors.Is(err, ErrMismatch):
			t.Errorf("%s: got %v, want it to be ErrMismatch", tt.name, err)
		}
	}
	// A manifest that declares nothing matches allow none.
	if err := checkAllowed(parse("none"), nil); err != nil {
		t.Errorf("allow none against no permissions: got %v, want no error", err)
	}
}

// FuzzAllow parses an allow line's value: one that parses and passes the
// manifest's rules is written back by AllowLines as a line that parses to
// the same permission.
func FuzzAllow(f *testing.F) {
	for _, s := range []string{"none", "write workspace", "connect 127.0.0.1:9099", "connect *", "run git", `read "/opt/my data"`, "read $HOME/x", "env TOKEN", `run "a\tb"`, `read "\x00"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		var p manifest.Permissions
		if value == allowNone || addAllow(&p, value) != nil || len(p.Problems()) > 0 {
			return
		}
		lines := AllowLines(&p)
		if len(lines) != 1 {
			t.Fatalf("allow %q: got lines %q, want one", value, lines)
		}
		var again manifest.Permissions
		if err := addAllow(&again, lines[0]); err != nil {
			t.Fatalf("allow %q, written as %q: %v", value, lines[0], err)
		}
		if got := AllowLines(&again); !slices.Equal(got, lines) {
			t.Fatalf("allow %q, written as %q: parsed again as %q", value, lines[0], got)
		}
		entries, err := Parse("mods.lock", []byte(block(lines[0])))
		if err != nil {
			t.Fatalf("allow %q, written as %q, in a block: %v", value, lines[0], err)
		}
		if got := AllowLines(entries[0].Permissions); !slices.Equal(got, lines) {
			t.Fatalf("allow %q, written as %q, in a block: parsed as %q", value, lines[0], got)
		}
	})
}

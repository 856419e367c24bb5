package manifest

import (
	"net"
	"path"
	"strconv"
	"strings"
	"testing"
)

func TestValidatePermissions(t *testing.T) {
	for _, tt := range []struct {
		name string
		p    Permissions
		want string // "" when valid
	}{
		{"least", Permissions{}, ""},
		{"all kinds", Permissions{WriteWorkspace: true, Connect: []string{"127.0.0.1:5432", "[::1]:80", "db.internal:443"},
			Run: []string{"go", "/bin/true"}, Read: []string{"$GOROOT", "$HOME/.config/app", "/etc/app"}, Env: []string{"HOME", "GOFLAGS"}}, ""},
		{"any alone", Permissions{Connect: []string{Any}, Run: []string{Any}}, ""},
		{"any beside others", Permissions{Connect: []string{Any, "a:1"}}, `permissions.connect: "*" allows everything: it must be the only entry`},
		{"no port", Permissions{Connect: []string{"db.internal"}}, `permissions.connect[0] "db.internal": not host:port`},
		{"port range", Permissions{Connect: []string{"a:70000"}}, `permissions.connect[0] "a:70000": port "70000" is not a number from 1 to 65535`},
		{"no host", Permissions{Connect: []string{":80"}}, `permissions.connect[0] ":80": the host is empty`},
		{"relative program", Permissions{Run: []string{"bin/tool"}}, `permissions.run[0] "bin/tool": a program is a name looked up in PATH or an absolute path`},
		{"relative read", Permissions{Read: []string{"notes"}}, `permissions.read[0] "notes": must be absolute, or start with one of $GOROOT`},
		{"unknown var", Permissions{Read: []string{"$GOPATH/pkg"}}, `permissions.read[0] "$GOPATH/pkg": $GOPATH is not one of $GOROOT`},
		{"dotdot", Permissions{Read: []string{"$HOME/../etc"}}, `permissions.read[0] "$HOME/../etc": not a clean path`},
		{"root", Permissions{Read: []string{"/"}}, `permissions.read[0] "/": the whole filesystem`},
		{"env name", Permissions{Env: []string{"A-B"}}, `permissions.env[0] "A-B": not an environment variable name`},
		{"env dup", Permissions{Env: []string{"HOME", "HOME"}}, `permissions.env[1] "HOME": duplicate, first at permissions.env[0]`},
	} {
		m := sample()
		m.Permissions = &tt.p
		err := Validate(m)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: got %v, want valid", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}

func TestPermissionsLines(t *testing.T) {
	var none *Permissions
	if got := none.Summary(); got != "reads the workspace only; no writes, network or programs" {
		t.Errorf("nil: got %q", got)
	}
	p := &Permissions{WriteWorkspace: true, Connect: []string{Any}, Run: []string{"go"}, Read: []string{"$GOROOT"}, Env: []string{"HOME"}}
	want := "writes the workspace; connects to any host; runs go; reads $GOROOT; receives HOME"
	if got := p.Summary(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !p.Writes() || (&Permissions{Read: []string{"/etc"}}).Writes() {
		t.Error("Writes: got the wrong answer for a writer or a reader")
	}
}

func TestResolveRead(t *testing.T) {
	vars := map[string]string{"GOROOT": "/usr/lib/go", "HOME": "/home/ada"}
	for in, want := range map[string]string{"$GOROOT": "/usr/lib/go", "$HOME/.config": "/home/ada/.config", "/etc/x": "/etc/x", "$GOCACHE": ""} {
		if got := ResolveRead(in, vars); got != want {
			t.Errorf("ResolveRead(%q): got %q, want %q", in, got, want)
		}
	}
}

// FuzzPermissions: Validate never panics on declared permissions, and what
// it accepts is what the host relies on: a connect entry is "*" or a host
// and a port from 1 to 65535, and a read entry resolves to a clean
// absolute path that stays below its variable's directory.
func FuzzPermissions(f *testing.F) {
	for _, s := range []string{"127.0.0.1:5432", "[::1]:80", "*", ":80", "a:70000", "db.internal", "$HOME/../etc", "$GOROOT", "/etc/app", "/", "notes", "$GOPATH/x", "$HOME//a", "$HOME/a/"} {
		f.Add(s, s)
	}
	vars := map[string]string{"GOROOT": "/usr/lib/go", "GOMODCACHE": "/home/ada/go/pkg/mod", "GOCACHE": "/home/ada/.cache/go-build", "HOME": "/home/ada"}
	f.Fuzz(func(t *testing.T, connect, read string) {
		m := sample()
		m.Permissions = &Permissions{Connect: []string{connect}, Read: []string{read}}
		if Validate(m) != nil {
			return
		}
		if connect != Any {
			host, port, err := net.SplitHostPort(connect)
			n, perr := strconv.Atoi(port)
			if err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
				t.Fatalf("connect %q accepted: host %q, port %q, %v", connect, host, port, err)
			}
		}
		got := ResolveRead(read, vars)
		if got == "" || !path.IsAbs(got) || path.Clean(got) != got || got == "/" {
			t.Fatalf("read %q accepted, resolves to %q: want a clean absolute path below /", read, got)
		}
		if name, _, _ := strings.Cut(read, "/"); strings.HasPrefix(read, "$") {
			base := vars[strings.TrimPrefix(name, "$")]
			if got != base && !strings.HasPrefix(got, base+"/") {
				t.Fatalf("read %q accepted, resolves to %q outside %s", read, got, base)
			}
		}
	})
}

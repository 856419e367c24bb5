package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/haproxycfg"
)

// TestRun: the command prints Config's configuration for its flags.
func TestRun(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run([]string{"-bind", "127.0.0.1:9000", "-checks", "-sticky-default", "127.0.0.1:9001", "127.0.0.1:9002"}, &out, &errOut)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	want := haproxycfg.Config(&haproxycfg.Options{Bind: "127.0.0.1:9000", Servers: []string{"127.0.0.1:9001", "127.0.0.1:9002"}, Checks: true, StickyDefault: true})
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestUsage: bad arguments are a usage error that says what is wrong.
func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"127.0.0.1:9001"}, "-bind is required"},
		{[]string{"-bind", ":9000"}, "at least one SERVER"},
		{[]string{"-bind", ":9000", "replica1"}, `server "replica1": want host:port`},
		{[]string{"-bind", ":9000", "-nope", "a:1"}, "flag provided but not defined: -nope"},
	} {
		var out, errOut bytes.Buffer
		err := run(tc.args, &out, &errOut)
		if !errors.Is(err, errUsage) || !strings.Contains(errOut.String(), tc.want) || out.Len() > 0 {
			t.Errorf("run %q: got %v, stderr %q, stdout %q; want a usage error saying %q and no output", tc.args, err, errOut.String(), out.String(), tc.want)
		}
	}
}

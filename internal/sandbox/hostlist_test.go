package sandbox

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestHostList(t *testing.T) {
	for _, bad := range []string{"127.0.0.1", "db:0", "db:65536", ":80", "db:http", "[::1:80"} {
		if _, err := newHostList([]string{bad}); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("newHostList(%q): got %v, want an error naming it", bad, err)
		}
	}
	l, err := newHostList([]string{"127.0.0.1:80", "[::1]:443", "db.internal:5432"})
	if err != nil {
		t.Fatal(err)
	}
	answer := []netip.Addr{netip.MustParseAddr("10.0.0.7")}
	lookups := 0
	l.lookup = func(_ context.Context, host string) ([]netip.Addr, error) {
		lookups++
		if host != "db.internal" {
			return nil, errors.New("no such host")
		}
		return answer, nil
	}
	for _, c := range []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:80", true},
		{"[::ffff:127.0.0.1]:80", true}, // an IPv6 socket's view of it
		{"127.0.0.2:80", false},
		{"127.0.0.1:81", false},
		{"[::1]:443", true},
		{"[::1]:80", false},
		{"10.0.0.7:5432", true},
		{"10.0.0.8:5432", false},
		{"10.0.0.7:5433", false},
	} {
		if got := l.allows(netip.MustParseAddrPort(c.addr)); got != c.want {
			t.Errorf("allows(%s): got %v, want %v", c.addr, got, c.want)
		}
	}
	if lookups != 1 {
		t.Errorf("got %d lookups of db.internal, want 1: the answer is kept, and asked again at most once a second", lookups)
	}
	// A name that does not resolve is asked at most once a second too.
	l.entries = append(l.entries, hostEntry{name: "gone.internal", port: 5432})
	for range 2 {
		if l.allows(netip.MustParseAddrPort("10.0.0.9:5432")) {
			t.Error("allows(10.0.0.9:5432): got true, want false")
		}
	}
	if lookups != 2 { // db.internal's, kept; gone.internal's once
		t.Errorf("got %d lookups, want 2: a failed lookup is kept as an empty answer", lookups)
	}
	lookups = 1
	// A new answer, after the recheck interval, is followed.
	answer = []netip.Addr{netip.MustParseAddr("10.0.0.8")}
	r := l.names["db.internal"]
	r.at = r.at.Add(-nameRecheck)
	l.names["db.internal"] = r
	if !l.allows(netip.MustParseAddrPort("10.0.0.8:5432")) || lookups != 2 {
		t.Errorf("after the name's addresses changed: got lookups %d, want 10.0.0.8 allowed after a second lookup", lookups)
	}
}

package haproxycfg_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/haproxycfg"
	"github.com/modkit/modkit/internal/testserver"
)

// documented is the configuration docs/deploy.md shows.
var documented = &haproxycfg.Options{Bind: ":8080", Servers: []string{"10.0.0.11:8080", "10.0.0.12:8080", "10.0.0.13:8080"}, Checks: true, Sticky: true}

// TestDocumented: the HAProxy configuration in docs/deploy.md is Config's.
func TestDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "deploy.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```haproxy\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/deploy.md: no ```haproxy block")
	}
	if want := haproxycfg.Config(documented); string(m[1]) != want {
		t.Errorf("docs/deploy.md: the haproxy block is\n%s\nwant Config's:\n%s", m[1], want)
	}
}

// TestValid: haproxy -c accepts every shape of the configuration.
func TestValid(t *testing.T) {
	bin := testserver.Need(t, "haproxy")
	for _, o := range []*haproxycfg.Options{
		documented,
		{Bind: "127.0.0.1:18080", Servers: []string{"127.0.0.1:18081", "127.0.0.1:18082"}},
		{Bind: "127.0.0.1:18080", Servers: []string{"127.0.0.1:18081"}, Checks: true, ServedBy: true},
		{Bind: "127.0.0.1:18080", Servers: []string{"127.0.0.1:18081", "127.0.0.1:18082"}, Checks: true, StickyDefault: true},
	} {
		file := filepath.Join(t.TempDir(), "haproxy.cfg")
		if err := os.WriteFile(file, []byte(haproxycfg.Config(o)), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bin, "-c", "-f", file).CombinedOutput(); err != nil {
			t.Errorf("haproxy -c of %+v: %v\n%s", o, err, out)
		}
	}
}

func TestServers(t *testing.T) {
	got := haproxycfg.Config(&haproxycfg.Options{Bind: ":1", Servers: []string{"a:1", "b:2"}, Checks: true})
	for _, want := range []string{"\tserver r1 a:1 check\n", "\tserver r2 b:2 check\n", "option httpchk GET /readyz"} {
		if !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(got) {
			t.Errorf("got\n%s\nwant a line %q", got, want)
		}
	}
	sticky := haproxycfg.Config(&haproxycfg.Options{Bind: ":1", Servers: []string{"a:1"}, StickyDefault: true})
	if !strings.Contains(sticky, "backend replicas\n\tbalance roundrobin\n\tstick-table ") || strings.Contains(sticky, "backend sticky") {
		t.Errorf("StickyDefault: got\n%s\nwant the stick table on the replicas backend, and no sticky backend", sticky)
	}
	plain := haproxycfg.Config(&haproxycfg.Options{Bind: ":1", Servers: []string{"a:1"}})
	if regexp.MustCompile(` check\n|httpchk|stick|X-Served-By`).MatchString(plain) {
		t.Errorf("without Checks, Sticky, StickyDefault, ServedBy: got\n%s\nwant no check, stick table or X-Served-By", plain)
	}
}

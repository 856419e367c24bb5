package apilist

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// monthAgo are the names testdata/monthago uses that were renamed or
// removed since, with the source text that uses each.
var monthAgo = []struct{ name, use string }{
	{"modtest.Completed", "modtest.Completed"},
	{"modtest.Failed", "modtest.Failed"},
	{"modtest.Cancelled", "modtest.Cancelled"},
	{"modtest.Denied", "modtest.Denied"},
	{"manifest.URITemplate", "manifest.URITemplate"},
	{"manifest.ParseURITemplate", "manifest.ParseURITemplate"},
	{"host.CallRequest.CallID", "CallID:"},
}

// TestMonthAgoMod checks that a mod, its tests and a program embedding a
// host, written against the names of a month before the API check,
// compile and pass, and that each renamed name they use is deprecated.
func TestMonthAgoMod(t *testing.T) {
	fixture := []string{"./internal/apilist/testdata/monthago", "./internal/apilist/testdata/monthago/embedder"}
	vet := exec.Command("go", append([]string{"vet"}, fixture...)...)
	vet.Dir = root
	if out, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the month-old mod: %v\n%s", err, out)
	}
	test := exec.Command("go", "test", "-count=1", fixture[0])
	test.Dir = root
	if out, err := test.CombinedOutput(); err != nil {
		t.Fatalf("go test of the month-old mod (if its generated files are out of date: go generate %s): %v\n%s", fixture[0], err, out)
	}

	var source strings.Builder
	for _, f := range []string{"monthago_test.go", "embedder/main.go"} {
		data, err := os.ReadFile(filepath.Join("testdata", "monthago", f))
		if err != nil {
			t.Fatal(err)
		}
		source.Write(data)
	}
	lines, err := List(root, Public...)
	if err != nil {
		t.Fatal(err)
	}
	var deprecated []string
	for _, l := range lines {
		if strings.HasSuffix(l, " //deprecated") {
			deprecated = append(deprecated, NameOf(l))
		}
	}
	for _, n := range monthAgo {
		if !strings.Contains(source.String(), n.use) {
			t.Errorf("testdata/monthago does not use %s (%q)", n.name, n.use)
		}
		if !slices.Contains(deprecated, n.name) {
			t.Errorf("%s: got no Deprecated: note, want one naming what replaced it", n.name)
		}
	}
}

package apilist

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite api/modkit.txt from the public packages' API")

// root is the repository's root.
const root = "../.."

// apiHeader opens api/modkit.txt.
const apiHeader = `# The exported API of modkit's public packages, one line per name: what mod
# authors and hosts build on. TestAPI in internal/apilist fails when it
# differs from the packages; after a change, run
#	go test ./internal/apilist -run TestAPI -update
# A line removed or changed must be named in CHANGELOG.md (modtest.Completed).
`

// TestAPI checks that api/modkit.txt records the public packages' API, and
// that every name removed or changed since is named in CHANGELOG.md.
func TestAPI(t *testing.T) {
	current, err := List(root, Public...)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "api", "modkit.txt")
	data, err := os.ReadFile(file)
	if err != nil && !(*update && os.IsNotExist(err)) {
		t.Fatal(err)
	}
	changelog, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	d := Compare(Parse(string(data)), current, string(changelog))
	if len(d.Unannounced) > 0 {
		t.Errorf("removed or changed, and not named in CHANGELOG.md: keep the name (a Deprecated alias) or name it there:\n\t%s",
			strings.Join(d.Unannounced, "\n\t"))
	}
	if *update {
		if len(d.Unannounced) == 0 {
			text := apiHeader + strings.Join(current, "\n") + "\n"
			if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if len(d.Added)+len(d.Removed) > 0 {
		t.Errorf("the public API differs from api/modkit.txt; review the change and run go test ./internal/apilist -run TestAPI -update\nadded:\n\t%s\nremoved or changed:\n\t%s",
			strings.Join(d.Added, "\n\t"), strings.Join(d.Removed, "\n\t"))
	}
}

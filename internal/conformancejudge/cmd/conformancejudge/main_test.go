package main

import (
	"errors"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"conformancejudge": func() {
			err := run(os.Args[1:], os.Stdout, os.Stderr)
			switch {
			case errors.Is(err, errUsage):
				os.Exit(2)
			case err != nil:
				if !errors.Is(err, errFailed) {
					os.Stderr.WriteString("conformancejudge: " + err.Error() + "\n")
				}
				os.Exit(1)
			}
		},
	})
}

// TestScripts runs testdata/script/*.txtar: logs of the conformance suite
// (a real run of 2026-07-28, and runs made to fail) and what the judge
// says of each.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}

// Command conformancejudge judges a run of the MCP conformance suite by
// the checks that ran (package conformancejudge), for .ci/conformance.sh.
//
// Usage:
//
//	conformancejudge -revision REV -list LIST -status N LOG
//
// LIST holds the output of `conformance list --server --requirements REV`,
// LOG that of `conformance server --url URL --requirements REV`, and N is
// the suite's exit status. It prints one line per scenario ("ok   NAME" or
// "FAIL NAME: why", with the scenario's part of the log), then
// "score: REV: P/S (run but not scored: p/s)", and exits 1 when the run
// fails.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/modkit/modkit/internal/conformancejudge"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, errUsage):
		os.Exit(2)
	case errors.Is(err, errFailed):
		os.Exit(1)
	case err != nil:
		fmt.Fprintln(os.Stderr, "conformancejudge:", err)
		os.Exit(1)
	}
}

var (
	// errUsage is a usage error, already reported on stderr.
	errUsage = errors.New("usage")
	// errFailed is a run that fails, already reported on stdout.
	errFailed = errors.New("the conformance run fails")
)

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("conformancejudge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conformancejudge -revision REV -list LIST -status N LOG")
		fs.PrintDefaults()
	}
	revision := fs.String("revision", "", "the requirement set's revision, like 2026-07-28")
	listFile := fs.String("list", "", "a file holding the output of `conformance list --server --requirements REV`")
	status := fs.Int("status", -1, "the exit status of `conformance server`")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	var why string
	switch {
	case *revision == "":
		why = "-revision is required"
	case *listFile == "":
		why = "-list is required"
	case *status < 0:
		why = "-status is required"
	case fs.NArg() != 1:
		why = "name one LOG"
	}
	if why != "" {
		fmt.Fprintln(stderr, "conformancejudge:", why)
		fs.Usage()
		return errUsage
	}
	listText, err := os.ReadFile(*listFile)
	if err != nil {
		return err
	}
	list, err := conformancejudge.ParseList(string(listText))
	if err != nil {
		return fmt.Errorf("%s: %w", *listFile, err)
	}
	log, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	r := conformancejudge.Judge(*revision, list, string(log), *status, conformancejudge.NoCheckPasses)
	write(stdout, r, string(log))
	if !r.OK() {
		return errFailed
	}
	return nil
}

// write prints r: its problems, a line per scenario, and the score.
func write(w io.Writer, r *conformancejudge.Report, log string) {
	for _, p := range r.Problems {
		fmt.Fprintf(w, "FAIL %s\n", p)
	}
	for _, v := range r.Verdicts {
		name := v.Scenario
		if v.Reason != "" {
			name += " (" + v.Reason + ")"
		}
		switch {
		case v.Problem != "":
			fmt.Fprintf(w, "FAIL %s: %s\n", name, v.Problem)
			io.WriteString(w, scenarioLog(log, v.Scenario))
		case v.Allowed != "":
			fmt.Fprintf(w, "ok   %s: no check passed, allowed: %s\n", name, v.Allowed)
		default:
			fmt.Fprintf(w, "ok   %s\n", name)
		}
	}
	passed, scored, otherPassed, other := r.Score()
	fmt.Fprintf(w, "score: %s: %d/%d (run but not scored: %d/%d)\n", r.Revision, passed, scored, otherPassed, other)
}

// scenarioLog returns what the suite printed while it ran scenario.
func scenarioLog(log, scenario string) string {
	_, rest, ok := strings.Cut(log, "=== Running scenario: "+scenario+" ===\n")
	if !ok {
		return ""
	}
	for _, end := range []string{"\n=== Running scenario: ", "\n=== SUMMARY ==="} {
		if i := strings.Index(rest, end); i >= 0 {
			rest = rest[:i]
		}
	}
	return strings.TrimRight(rest, "\n") + "\n"
}

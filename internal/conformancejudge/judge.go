package conformancejudge

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// NoCheckPasses names the scenarios that may pass no check, each with the
// reason. Keep it short: every entry is a scenario nothing verifies.
var NoCheckPasses = map[string]string{
	"tasks-status-notifications": "the suite skips it itself (conformance 0.2.0-alpha.12: its harness awaits a rewrite for SEP-2663's subscriptions/listen stream)",
}

// List is what a revision's requirement set runs against a server.
type List struct {
	// Scored are the scenarios the revision requires.
	Scored []string
	// NotScored maps each scenario run but not scored to why:
	// "extension", "pending" or "added-after-release".
	NotScored map[string]string
}

// all returns every scenario of l.
func (l List) all() []string {
	return append(slices.Clone(l.Scored), slices.Sorted(maps.Keys(l.NotScored))...)
}

var (
	listItem       = regexp.MustCompile(`^  - (\S+)$`)
	notScoredGroup = regexp.MustCompile(`^  (\S+) \(\d+\):$`)
	notScoredItem  = regexp.MustCompile(`^    - (\S+) \[(\w+)\]$`)
)

// ParseList reads the output of `conformance list --server --requirements
// REV`: the server scenarios the revision requires, then, under "Run and
// reported, but never scored:", each group's scenarios of the server leg.
func ParseList(text string) (List, error) {
	l := List{NotScored: map[string]string{}}
	section, group := "", ""
	for i, line := range strings.Split(text, "\n") {
		switch {
		case line == "":
		case !strings.HasPrefix(line, " "):
			section, group = line, ""
		case strings.HasPrefix(section, "Server scenarios"):
			m := listItem.FindStringSubmatch(line)
			if m == nil {
				return List{}, fmt.Errorf("scenario list: line %d: got %q, want \"  - NAME\"", i+1, line)
			}
			l.Scored = append(l.Scored, m[1])
		case strings.HasPrefix(section, "Run and reported, but never scored"):
			if m := notScoredGroup.FindStringSubmatch(line); m != nil {
				group = m[1]
				continue
			}
			m := notScoredItem.FindStringSubmatch(line)
			if m == nil || group == "" {
				return List{}, fmt.Errorf("scenario list: line %d: got %q, want \"    - NAME [LEG]\" under a reason", i+1, line)
			}
			if m[2] == "server" {
				l.NotScored[m[1]] = group
			}
		}
	}
	if len(l.Scored) == 0 {
		return List{}, fmt.Errorf("scenario list: no server scenarios (want a \"Server scenarios\" section)")
	}
	return l, nil
}

// Result is one scenario's line in the suite's summary.
type Result struct {
	Scenario       string
	Passed, Failed int
}

var summaryLine = regexp.MustCompile(`^([✓✗]) (\S+): (\d+) passed, (\d+) failed$`)

// ParseSummary reads the results of a run's log: the lines after
// "=== SUMMARY ===" up to the total, "✓ NAME: P passed, F failed". A log
// without a summary is an error; a summary without a scenario is not
// (the judge fails it against the list).
func ParseSummary(log string) ([]Result, error) {
	_, summary, ok := strings.Cut(log, "\n=== SUMMARY ===\n")
	if !ok {
		if !strings.HasPrefix(log, "=== SUMMARY ===\n") {
			return nil, fmt.Errorf("the suite printed no summary (no line \"=== SUMMARY ===\")")
		}
		summary = strings.TrimPrefix(log, "=== SUMMARY ===\n")
	}
	var results []Result
	for line := range strings.Lines(summary) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" || strings.HasPrefix(line, "Total: ") {
			break
		}
		m := summaryLine.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("in the summary, got %q; want \"✓ NAME: P passed, F failed\"", line)
		}
		passed, _ := strconv.Atoi(m[3])
		failed, _ := strconv.Atoi(m[4])
		if (m[1] == "✓") != (failed == 0) {
			return nil, fmt.Errorf("in the summary, %q: its mark disagrees with its failed checks", line)
		}
		results = append(results, Result{Scenario: m[2], Passed: passed, Failed: failed})
	}
	return results, nil
}

// Verdict is the judgement of one scenario.
type Verdict struct {
	Scenario string
	// Listed says whether the revision's list names the scenario.
	Listed bool
	// Reason is why the scenario is not scored ("extension", …), or "".
	Reason string
	// Problem says why the scenario fails, or is "" when it passes.
	Problem string
	// Allowed is the reason from [NoCheckPasses] when the scenario passed
	// no check and may.
	Allowed string
}

// Report is the judgement of one run.
type Report struct {
	Revision string
	// Problems are the run's failures that belong to no one scenario.
	Problems []string
	// Verdicts are the scenarios in the order of the summary, then those
	// of the list that did not run.
	Verdicts []Verdict
}

// OK reports whether the run passes.
func (r *Report) OK() bool {
	if len(r.Problems) > 0 {
		return false
	}
	for _, v := range r.Verdicts {
		if v.Problem != "" {
			return false
		}
	}
	return true
}

// Score counts the scenarios of the list, scored and run but not scored,
// and how many of each passed: all of its lines.
func (r *Report) Score() (passed, scored, otherPassed, other int) {
	ok, reason := map[string]bool{}, map[string]string{}
	for _, v := range r.Verdicts {
		if v.Listed {
			prev, seen := ok[v.Scenario]
			ok[v.Scenario] = (prev || !seen) && v.Problem == ""
			reason[v.Scenario] = v.Reason
		}
	}
	for name, pass := range ok {
		if reason[name] == "" {
			scored++
			passed += b2i(pass)
		} else {
			other++
			otherPassed += b2i(pass)
		}
	}
	return passed, scored, otherPassed, other
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Judge judges the log of `conformance server --requirements revision`,
// which exited with status, against the revision's list; noCheck names
// the scenarios that may pass no check ([NoCheckPasses]).
func Judge(revision string, list List, log string, status int, noCheck map[string]string) *Report {
	r := &Report{Revision: revision}
	if status != 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("the suite exited with status %d", status))
	}
	results, err := ParseSummary(log)
	if err != nil {
		r.Problems = append(r.Problems, err.Error())
	}
	listed := list.all()
	ran := map[string]bool{}
	for _, res := range results {
		v := Verdict{Scenario: res.Scenario, Listed: slices.Contains(listed, res.Scenario), Reason: list.NotScored[res.Scenario]}
		switch {
		case ran[res.Scenario]:
			v.Problem = "appears twice in the summary"
		case !v.Listed:
			v.Problem = fmt.Sprintf("ran, but `conformance list --server --requirements %s` does not name it", revision)
		case res.Failed > 0:
			v.Problem = fmt.Sprintf("%d of its checks failed (%d passed)", res.Failed, res.Passed)
		case res.Passed == 0 && noCheck[res.Scenario] == "":
			v.Problem = "no check passed: every check it ran was skipped, a warning or information"
		case res.Passed == 0:
			v.Allowed = noCheck[res.Scenario]
		}
		ran[res.Scenario] = true
		r.Verdicts = append(r.Verdicts, v)
	}
	if err == nil && len(results) == 0 {
		r.Problems = append(r.Problems, "the summary names no scenario")
	}
	for _, name := range listed {
		if !ran[name] {
			r.Verdicts = append(r.Verdicts, Verdict{Scenario: name, Listed: true, Reason: list.NotScored[name],
				Problem: fmt.Sprintf("`conformance list --server --requirements %s` names it, but it did not run", revision)})
		}
	}
	return r
}

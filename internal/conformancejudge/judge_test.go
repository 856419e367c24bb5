package conformancejudge

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestParseList reads the real list of 2025-11-25: its server scenarios,
// and of those run but not scored only the server's, with their reasons.
func TestParseList(t *testing.T) {
	t.Parallel()
	l := readList(t, "testdata/2025-11-25.list")
	if len(l.Scored) != 30 || l.Scored[0] != "server-initialize" || l.Scored[29] != "dns-rebinding-protection" {
		t.Errorf("got %d scored scenarios %q, want the 30 from server-initialize to dns-rebinding-protection", len(l.Scored), l.Scored)
	}
	want := map[string]string{"server-session-lifecycle": "added-after-release", "json-schema-2020-12": "pending", "server-sse-polling": "pending"}
	if !maps.Equal(l.NotScored, want) {
		t.Errorf("got not scored %v, want %v", l.NotScored, want)
	}
}

// TestJudgeRealRun judges a real run of 2025-11-25 against modhost's
// fixture mod: the suite's summary marks every scenario ✓ and it exited
// 0, but server-sse-polling passed no check (two warnings: no SSE
// priming event, no retry field), so the run fails on it alone.
func TestJudgeRealRun(t *testing.T) {
	t.Parallel()
	l := readList(t, "testdata/2025-11-25.list")
	log, err := os.ReadFile("testdata/2025-11-25.log")
	if err != nil {
		t.Fatal(err)
	}
	r := Judge("2025-11-25", l, string(log), 0, NoCheckPasses)
	var failed []string
	for _, v := range r.Verdicts {
		if v.Problem != "" {
			failed = append(failed, v.Scenario+": "+v.Problem)
		}
	}
	if want := []string{"server-sse-polling: no check passed: every check it ran was skipped, a warning or information"}; !slices.Equal(failed, want) || len(r.Problems) > 0 || r.OK() {
		t.Errorf("got failures %q, problems %q, OK %v; want %q alone", failed, r.Problems, r.OK(), want)
	}
	if p, s, op, o := r.Score(); p != 30 || s != 30 || op != 2 || o != 3 {
		t.Errorf("got score %d/%d, not scored %d/%d; want 30/30 and 2/3", p, s, op, o)
	}
}

// TestParseSummary: the summary's lines up to the total, and nothing
// from the log before it.
func TestParseSummary(t *testing.T) {
	t.Parallel()
	log := "=== Running scenario: a ===\n✓ fake: 1 passed, 0 failed\n\n=== SUMMARY ===\n✓ a: 2 passed, 0 failed\n✗ b: 0 passed, 3 failed\n\nTotal: 2 passed, 3 failed\n\n  ✓ a (pending)\n"
	got, err := ParseSummary(log)
	want := []Result{{"a", 2, 0}, {"b", 0, 3}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{"", "no summary here\n", "=== SUMMARY ===\n✓ a: two passed, 0 failed\n"} {
		if got, err := ParseSummary(bad); err == nil {
			t.Errorf("ParseSummary(%q) = %v, want an error", bad, got)
		}
	}
}

func readList(t *testing.T, file string) List {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ParseList(strings.ReplaceAll(string(data), "\r\n", "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

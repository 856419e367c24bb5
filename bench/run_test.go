package main

import (
	"bytes"
	"context"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/testenv"
)

// TestEveryRow runs every measurement once, briefly, and checks the report's
// shape: a table row and a parseable ratio line for each measurement.
func TestEveryRow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts every side")
	}
	cfg := config{rounds: 1, warmup: 1, calls: 5, workers: 2, concurrentFor: 50 * time.Millisecond,
		coldStarts: 1, cancels: 2, decodes: 10, batches: 2, lists: 1, idleFor: 10 * time.Millisecond}
	// The rows whose server or node tools are not installed are left out,
	// then reported missing: a skip locally, a failure under CI.
	_, _, nodeErr := nodeTools()
	var measured, missing []string
	for _, m := range measurements {
		switch {
		case !m.installed():
			missing = append(missing, needs[m.name]+" (row "+m.name+")")
		case nodeErr != nil && tsRows[m.name]:
			missing = append(missing, "the node tools (row "+m.name+": "+nodeErr.Error()+")")
		default:
			measured = append(measured, m.name)
		}
	}
	cfg.only = regexpMust(t, "^("+strings.Join(measured, "|")+")$")
	var out bytes.Buffer
	if err := measureAll(context.Background(), benchEnv(t), cfg, &out, io.Discard); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	report := out.String()
	for _, name := range measured {
		if !strings.Contains(report, "| `"+name+"` |") {
			t.Errorf("report has no row for %s:\n%s", name, report)
		}
	}
	var ratios int
	for line := range strings.Lines(report) {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "ratio" {
			continue
		}
		ratios++
		if len(f) != 3 {
			t.Errorf("ratio line %q: got %d fields, want 3", line, len(f))
			continue
		}
		v, err := strconv.ParseFloat(f[2], 64)
		switch {
		case differenceRows[f[1]]:
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("ratio line %q: got value %q, want a finite number", line, f[2])
			}
		case err != nil || !(v > 0):
			t.Errorf("ratio line %q: got value %q, want a positive number", line, f[2])
		}
	}
	if ratios != len(measured) {
		t.Errorf("got %d ratio lines, want %d", ratios, len(measured))
	}
	if len(missing) > 0 && !t.Failed() {
		testenv.Missing(t, "%s: apt-get install the servers (.ci/run does); .ci/conformance.sh installs the node tools", strings.Join(missing, ", "))
	}
}

// differenceRows are the rows whose sides are differences of two p50s
// (a hop: via less straight). With the few calls TestEveryRow makes, a
// side may come out below zero on a busy machine, and so the ratio.
var differenceRows = map[string]bool{"balanced_hop_vs_haproxy": true}

func TestRunOnlySelected(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the baselines")
	}
	cfg := quickConfig()
	cfg.rounds, cfg.batches, cfg.decodes = 1, 2, 10
	cfg.only = regexpMust(t, "^validate_vs_json$")
	var out bytes.Buffer
	if err := measureAll(context.Background(), benchEnv(t), cfg, &out, io.Discard); err != nil {
		t.Fatalf("run: %v", err)
	}
	if got := strings.Count(out.String(), "\nratio "); got != 1 {
		t.Errorf("got %d ratio lines, want 1:\n%s", got, out.String())
	}
}

func regexpMust(t *testing.T, expr string) *regexp.Regexp {
	t.Helper()
	re, err := regexp.Compile(expr)
	if err != nil {
		t.Fatal(err)
	}
	return re
}

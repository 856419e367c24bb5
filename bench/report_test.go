package main

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestGoal(t *testing.T) {
	tests := []struct {
		g    goal
		v    float64
		want bool
		str  string
	}{
		{atMost(1.2), 1.1, true, "≤ 1.2"},
		{atMost(1.2), 1.2, true, "≤ 1.2"},
		{atMost(1.2), 1.3, false, "≤ 1.2"},
		{atLeast(5), 4.9, false, "≥ 5"},
		{atLeast(5), 12, true, "≥ 5"},
		{atLeast(5), math.NaN(), false, "≥ 5"},
		{atMost(50), 3, true, "≤ 50"},
		{reference(), 14.6, true, "reference only"},
	}
	for _, tt := range tests {
		if got := tt.g.met(tt.v); got != tt.want {
			t.Errorf("%s met(%v) = %v, want %v", tt.g, tt.v, got, tt.want)
		}
		if got := tt.g.String(); got != tt.str {
			t.Errorf("goal String() = %q, want %q", got, tt.str)
		}
	}
}

func TestWriteReport(t *testing.T) {
	var host, bare, rate1, rate2 sample
	host.add([]float64{200, 210, 900})
	bare.add([]float64{180, 190, 400})
	host.add([]float64{220, 230})
	bare.add([]float64{200, 200})
	rate1.add([]float64{4000})
	rate1.add([]float64{4200})
	rate2.add([]float64{5000})
	rate2.add([]float64{5000})
	var rss, bareRSS sample
	rss.add([]float64{16.1})
	bareRSS.add([]float64{15.4})
	concurrent := compare("concurrent_vs_goplugin", rateSide("host.Call ×8", "calls/s", &rate1), rateSide("go-plugin ×8", "calls/s", &rate2), roundRatios(&rate1, &rate2), atLeast(0.8))
	concurrent.notes = []string{"CPU per call: 50 µs host + 60 µs mod"}
	rows := []row{
		compare("call_vs_goplugin", latencySide("host.Call", &host), latencySide("go-plugin unary", &bare), roundRatios(&host, &bare), atMost(1.2)),
		concurrent,
		compare("idle_rss_vs_goplugin", rssSide("mod VmRSS", &rss), rssSide("go-plugin VmRSS", &bareRSS), roundRatios(&rss, &bareRSS), atMost(1.05)),
		failed("list100_ms", atMost(50), errors.New("load: no | such\nmod")),
	}
	var buf bytes.Buffer
	if err := writeReport(&buf, rows); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "report.golden")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != string(want) {
		t.Errorf("report:\ngot:\n%s\nwant:\n%s", got, want)
	}
}

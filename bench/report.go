package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// goal is a row's target: the ratio must be at most, or at least, value;
// a reference row has none.
type goal struct {
	atMost bool
	value  float64
	ref    bool
}

func atMost(v float64) goal  { return goal{atMost: true, value: v} }
func atLeast(v float64) goal { return goal{atMost: false, value: v} }

// reference is the goal of a row measured for reference only.
func reference() goal { return goal{ref: true} }

func (g goal) met(v float64) bool {
	if math.IsNaN(v) {
		return false
	}
	if g.ref {
		return true
	}
	if g.atMost {
		return v <= g.value
	}
	return v >= g.value
}

func (g goal) String() string {
	if g.ref {
		return "reference only"
	}
	if g.atMost {
		return "≤ " + strconv.FormatFloat(g.value, 'g', -1, 64)
	}
	return "≥ " + strconv.FormatFloat(g.value, 'g', -1, 64)
}

// side is one side of a comparison: a latency distribution (p50 and p99) or
// a rate (its median across rounds and its slowest round).
type side struct {
	label    string
	unit     string
	p50, p99 float64
	rate     bool
}

// latencySide summarises latencies in microseconds.
func latencySide(label string, s *sample) side {
	xs := s.all()
	return side{label: label, unit: "µs", p50: percentile(xs, 50), p99: percentile(xs, 99)}
}

// msSide summarises latencies measured in microseconds, in milliseconds.
func msSide(label string, s *sample) side {
	sd := latencySide(label, s)
	sd.unit, sd.p50, sd.p99 = "ms", sd.p50/1000, sd.p99/1000
	return sd
}

// rateSide summarises one rate per round.
func rateSide(label, unit string, s *sample) side {
	xs := s.all()
	lo, _ := spread(xs)
	return side{label: label, unit: unit, p50: median(xs), p99: lo, rate: true}
}

// row is one line of the report.
type row struct {
	name     string
	a, b     side // b.label is empty for rows without a baseline
	ratio    float64
	lo, hi   float64 // spread of the per-round ratios
	goal     goal
	err      error
	baseline bool     // b is set
	notes    []string // printed under the table
}

// compare builds a row whose ratio is the median of the per-round ratios.
func compare(name string, a, b side, ratios []float64, g goal) row {
	lo, hi := spread(ratios)
	return row{name: name, a: a, b: b, baseline: true, ratio: median(ratios), lo: lo, hi: hi, goal: g}
}

// single builds a row whose value is a's median; the spread is the range of
// the per-round medians.
func single(name string, a side, perRound []float64, g goal) row {
	lo, hi := spread(perRound)
	return row{name: name, a: a, ratio: a.p50, lo: lo, hi: hi, goal: g}
}

// failed builds a row that could not be measured.
func failed(name string, g goal, err error) row {
	return row{name: name, ratio: math.NaN(), lo: math.NaN(), hi: math.NaN(), goal: g, err: err}
}

// writeReport writes the Markdown table, then one "ratio NAME VALUE" line
// per row.
func writeReport(w io.Writer, rows []row) error {
	var b strings.Builder
	writeTable(&b, rows)
	for _, r := range rows {
		fmt.Fprintf(&b, "ratio %s %s\n", r.name, strconv.FormatFloat(round3(r.ratio), 'f', -1, 64))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTable writes the Markdown table of rows, then their notes.
func writeTable(b *strings.Builder, rows []row) {
	b.WriteString("| name | measured | p50 | p99 | baseline | p50 | p99 | ratio | spread | goal | met |\n")
	b.WriteString("| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | --- | --- | --- |\n")
	for _, r := range rows {
		if r.err != nil {
			fmt.Fprintf(b, "| `%s` | error: %s | | | | | | – | | %s | no |\n", r.name, cell(r.err.Error()), r.goal)
			continue
		}
		bl, b50, b99 := "–", "", ""
		if r.baseline {
			bl, b50, b99 = r.b.label, r.b.fmt50(), r.b.fmt99()
		}
		met := "no"
		switch {
		case r.goal.ref:
			met = "–"
		case r.goal.met(r.ratio):
			met = "yes"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s–%s | %s | %s |\n",
			r.name, r.a.label, r.a.fmt50(), r.a.fmt99(), bl, b50, b99,
			num(r.ratio), num(r.lo), num(r.hi), r.goal, met)
	}
	b.WriteString("\n")
	var notes int
	for _, r := range rows {
		for _, n := range r.notes {
			fmt.Fprintf(b, "- `%s`: %s\n", r.name, n)
			notes++
		}
	}
	if notes > 0 {
		b.WriteString("\n")
	}
}

func (s side) fmt50() string { return num(s.p50) + " " + s.unit }

func (s side) fmt99() string {
	if s.rate {
		return "min " + num(s.p99)
	}
	return num(s.p99) + " " + s.unit
}

// num formats v with three significant digits, or more for large values.
func num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.Abs(v) >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

func round3(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	return math.Round(v*1000) / 1000
}

// cell keeps text inside one Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}

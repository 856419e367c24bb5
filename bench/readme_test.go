package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readmeGoals returns the goal of each row in README.md's table that
// starts after the line heading, by the row's name: the last cell of the
// Rows table, the tenth of the results table.
func readmeGoals(t *testing.T, text, after string, cell int) map[string]string {
	t.Helper()
	_, rest, ok := strings.Cut(text, after)
	if !ok {
		t.Fatalf("README.md has no %q", after)
	}
	goals := map[string]string{}
	started := false
	for line := range strings.Lines(rest) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if started {
				break
			}
			continue
		}
		started = true
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		name, ok := strings.CutPrefix(strings.TrimSpace(cells[0]), "`")
		if !ok {
			continue // the header and its rule
		}
		name = strings.TrimSuffix(name, "`")
		i := cell
		if i < 0 {
			i = len(cells) + cell
		}
		if i >= len(cells) {
			t.Fatalf("README.md row %s: got %d cells, want at least %d", name, len(cells), i+1)
		}
		if _, dup := goals[name]; dup {
			t.Errorf("README.md: row %s appears twice after %q", name, after)
		}
		goals[name] = strings.TrimSpace(cells[i])
	}
	return goals
}

// TestReadmeGoals: README.md's Rows table names every row the benchmark
// measures, with the code's goal, and the results table of the latest run
// shows the code's goals too (a goal changed in code needs a new run).
func TestReadmeGoals(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	rows := readmeGoals(t, text, "\n## Rows\n", -1)
	if len(rows) != len(measurements) {
		t.Errorf("README.md's Rows table: got %d rows, want %d, one per measurement", len(rows), len(measurements))
	}
	for _, m := range measurements {
		if got, ok := rows[m.name]; !ok {
			t.Errorf("README.md's Rows table has no row %s", m.name)
		} else if got != m.goal.String() {
			t.Errorf("README.md's Rows table: row %s: got goal %q, want the code's %q", m.name, got, m.goal)
		}
	}
	section, _, _ := strings.Cut(text, resultsEnd)
	results := readmeGoals(t, section, resultsBegin, 9)
	if len(results) == 0 {
		t.Errorf("README.md's results section has no table: run go run ./bench -readme bench/README.md")
	}
	for name, got := range results {
		var want string
		for _, m := range measurements {
			if m.name == name {
				want = m.goal.String()
			}
		}
		if got != want {
			t.Errorf("README.md's results: row %s: got goal %q, want the code's %q", name, got, want)
		}
	}
}

// TestWriteReadme: the results section is replaced, the rest kept; a
// README without the section is an error that says so.
func TestWriteReadme(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "README.md")
	before := "# bench\n\n" + resultsBegin + "\nold table\n" + resultsEnd + "\n\nafter\n"
	if err := os.WriteFile(file, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	m := machine{date: time.Date(2026, 12, 4, 19, 30, 0, 0, time.UTC), cores: 2, cpu: "AMD EPYC", goVer: "go1.26.8", commit: "0123456789ab", quick: true, rounds: 3}
	var sink, rss sample
	sink.add([]float64{16.1})
	rss.add([]float64{15.4})
	rows := []row{compare("idle_rss_vs_goplugin", rssSide("mod", &sink), rssSide("go-plugin", &rss), roundRatios(&sink, &rss), atMost(1.0))}
	if err := writeReadme(file, resultsSection(m, rows)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	for _, want := range []string{
		"# bench\n\n" + resultsBegin + "\n\nMeasured by `go run ./bench -quick`, a quick run (3 rounds a row) on 2026-12-04 19:30 UTC, on a machine of 2 cores (AMD EPYC), with go1.26.8, at commit 0123456789ab.\n\n| name |",
		"| `idle_rss_vs_goplugin` | mod | 16.1 MiB |",
		"| ≤ 1 | no |\n\n" + resultsEnd + "\n\nafter\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("README after writeReadme:\n%s\nwant it to contain %q", got, want)
		}
	}
	if strings.Contains(got, "old table") {
		t.Errorf("README after writeReadme still holds the old table:\n%s", got)
	}
	os.WriteFile(file, []byte("# bench\n"), 0o644)
	if err := writeReadme(file, "x"); err == nil || !strings.Contains(err.Error(), "no results section") {
		t.Errorf("README without the section: got %v, want an error saying it has none", err)
	}
}

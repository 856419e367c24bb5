package host

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/internal/testenv"
	"github.com/modkit/modkit/manifest"
)

// writeLoadFleet writes n mod directories under dir, each a one-line Go
// package with a manifest of tools tools shaped like the research mod's
// first, their ids starting with prefix, and returns their paths.
func writeLoadFleet(tb testing.TB, dir, prefix string, n, tools int) []string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "examples", "research", manifest.FileName))
	if err != nil {
		tb.Fatal(err)
	}
	base, err := manifest.Decode(data)
	if err != nil {
		tb.Fatal(err)
	}
	dirs := make([]string, n)
	for i := range dirs {
		id := fmt.Sprintf("%s%03d", prefix, i)
		dirs[i] = filepath.Join(dir, id)
		if err := os.MkdirAll(dirs[i], 0o755); err != nil {
			tb.Fatal(err)
		}
		src := filepath.Join(dirs[i], id+".go")
		if err := os.WriteFile(src, []byte("package "+id+"\n"), 0o644); err != nil {
			tb.Fatal(err)
		}
		m := &manifest.Manifest{
			FormatVersion: manifest.FormatVersion,
			ID:            id,
			GoPackage:     "example.com/fleet/" + id,
			SourceHash:    freshness.Files([]string{src}),
		}
		for j := range tools {
			t := base.Tools[0]
			t.Name = fmt.Sprintf("%s_tool%d", id, j)
			m.Tools = append(m.Tools, t)
		}
		out, err := manifest.Encode(m)
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dirs[i], manifest.FileName), out, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dirs
}

// firstLoadRound numbers BenchmarkFirstLoad's fleets across runs.
var firstLoadRound atomic.Int64

// BenchmarkFirstLoad loads 100 mods of 5 tools that this process never
// loaded before: each iteration writes new directories with new ids.
func BenchmarkFirstLoad(b *testing.B) {
	tmp := b.TempDir()
	warm := writeLoadFleet(b, tmp, "warm", 2, 5)
	if h, err := Load(warm, nil); err != nil {
		b.Fatal(err)
	} else {
		h.Close()
	}
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		dirs := writeLoadFleet(b, tmp, fmt.Sprintf("r%dx", firstLoadRound.Add(1)), 100, 5)
		b.StartTimer()
		cpuStart := testenv.ProcessCPU()
		h, err := Load(dirs, nil)
		if err != nil {
			b.Fatal(err)
		}
		if bad := h.Unavailable(); len(bad) > 0 {
			b.Fatal(bad[0])
		}
		if tools, err := h.Tools(""); err != nil || len(tools) != 500 {
			b.Fatalf("got %d tools, %v; want 500", len(tools), err)
		}
		cpu += testenv.ProcessCPU() - cpuStart
		h.Close()
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
}

// TestToolsSortedByName loads mods whose tools' names interleave and
// checks that Tools lists every one, sorted by name, with its mod.
func TestToolsSortedByName(t *testing.T) {
	t.Parallel()
	dirs := writeLoadFleet(t, t.TempDir(), "sorted", 3, 4)
	slices.Reverse(dirs)
	h, err := Load(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	tools, err := h.Tools("")
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 12 {
		t.Fatalf("got %d tools, want 12", len(tools))
	}
	for i, tl := range tools {
		if i > 0 && tools[i-1].Name >= tl.Name {
			t.Errorf("tools[%d] %s comes after %s", i, tl.Name, tools[i-1].Name)
		}
		if want := strings.SplitN(tl.Name, "_", 2)[0]; tl.Mod != want {
			t.Errorf("tool %s: got mod %s, want %s", tl.Name, tl.Mod, want)
		}
	}
}

// TestLoadKeepsDirOrder loads more mods than workers and checks that the
// host keeps them in the order of the directories given.
func TestLoadKeepsDirOrder(t *testing.T) {
	t.Parallel()
	dirs := writeLoadFleet(t, t.TempDir(), "order", 9, 1)
	slices.Reverse(dirs)
	h, err := Load(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	mods := h.Mods()
	if len(mods) != len(dirs) {
		t.Fatalf("got %d mods, want %d", len(mods), len(dirs))
	}
	for i, m := range mods {
		if want := filepath.Base(dirs[i]); m.ID != want {
			t.Errorf("mods[%d]: got %s, want %s", i, m.ID, want)
		}
	}
}

package modreload

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestWatch reports a watched file created, a mod's source changed, and
// nothing for the files a mod's snapshot leaves out (tests, modgen's).
func TestWatch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mod := filepath.Join(dir, "mod")
	if err := os.Mkdir(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	// write replaces the file at once, as editors save: a poll never
	// sees it half written.
	write := func(name, content string) {
		t.Helper()
		tmp := name + ".tmp"
		if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, name); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(mod, "mod.go"), "package mod\n")
	lock := filepath.Join(dir, "mods.lock") // not there yet
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changes := make(chan []string, 10)
	Watch(ctx, &Options{Dirs: []string{mod}, Files: []string{lock}, Interval: 10 * time.Millisecond},
		func(paths []string) { changes <- slices.Clone(paths) })

	// Left out of the snapshot: no change. The next change is reported
	// alone.
	write(filepath.Join(mod, "mod_test.go"), "package mod\n")
	write(filepath.Join(mod, "zz_generated.modgen.go"), "package mod\n")
	write(lock, "mod example.com/greet\n")
	if got := <-changes; !slices.Equal(got, []string{lock}) {
		t.Errorf("mods.lock created: got %v, want [%s]", got, lock)
	}
	write(filepath.Join(mod, "mod.go"), "package mod\n\nvar X = 1\n")
	if got := <-changes; !slices.Equal(got, []string{mod}) {
		t.Errorf("a source edited: got %v, want [%s]", got, mod)
	}
	// The same contents saved again: no change; then a removal is one.
	write(filepath.Join(mod, "mod.go"), "package mod\n\nvar X = 1\n")
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	if got := <-changes; !slices.Equal(got, []string{lock}) {
		t.Errorf("mods.lock removed: got %v, want [%s]", got, lock)
	}
	// An icon beside the sources is one of them.
	write(filepath.Join(mod, "icon.svg"), "<svg/>")
	if got := <-changes; !slices.Equal(got, []string{mod}) {
		t.Errorf("an icon added: got %v, want [%s]", got, mod)
	}
}

// TestWatchStale reports the stale paths first, before any edit.
func TestWatchStale(t *testing.T) {
	t.Parallel()
	mod := t.TempDir()
	changes := make(chan []string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	Watch(ctx, &Options{Dirs: []string{mod}, Stale: []string{mod}, Interval: time.Hour}, func(paths []string) { changes <- paths })
	if got := <-changes; !slices.Equal(got, []string{mod}) {
		t.Errorf("got %v, want [%s]", got, mod)
	}
}

package modbuild

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The build configuration's key changes with every setting that changes
// what go build makes.
func TestConfigKeyCoversTheEnvironment(t *testing.T) {
	dir, err := filepath.Abs("../../host/testdata/mods/crashy")
	if err != nil {
		t.Fatal(err)
	}
	key := func(t *testing.T) string {
		t.Helper()
		cfg, err := Configure(dir, "github.com/modkit/modkit/host/testdata/mods/crashy")
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Key
	}
	base := key(t)
	if again := key(t); again != base {
		t.Fatalf("key changed from %s to %s with nothing changed", base, again)
	}
	for _, tt := range []struct{ name, value string }{
		{"GOOS", "windows"},
		{"GOARCH", "arm64"},
		{"CGO_ENABLED", "0"},
		{"GOEXPERIMENT", "jsonv2"},
		{"GOFLAGS", "-tags=extra"},
		{"GOAMD64", "v3"},
		{"CGO_CFLAGS", "-O3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(tt.name, tt.value)
			if got := key(t); got == base {
				t.Errorf("%s=%s: key unchanged", tt.name, tt.value)
			}
		})
	}
}

func TestLockFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := LockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan func(), 1)
	go func() {
		u, err := LockFile(path)
		if err != nil {
			u = func() {}
		}
		got <- u
	}()
	select {
	case u := <-got:
		u()
		t.Fatal("a second holder took a held lock")
	case <-time.After(50 * LockPoll):
	}
	unlock()
	(<-got)()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("lock file left after unlock: %v", err)
	}
}

// A lock its holder stopped touching, as when the host died, is broken.
func TestStaleLockIsBroken(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x.lock")
	os.WriteFile(path, nil, 0o600)
	old := time.Now().Add(-2 * LockStale)
	os.Chtimes(path, old, old)
	unlock, err := LockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}

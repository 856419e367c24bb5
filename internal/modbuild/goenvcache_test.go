//go:build linux || darwin

package modbuild

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// go env's answer is kept in the cache and used while nothing it depends
// on changed; each change runs go env again, and the answer is always the
// one go env gives now.
func TestGoEnvCacheFollowsWhatGoEnvReads(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "cache")
	if _, err := OpenCache(root); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(tmp, "work")
	dir := filepath.Join(work, "mod")
	write(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	goenv := filepath.Join(tmp, "goenv")
	t.Setenv("GOENV", goenv)
	t.Setenv("GOFLAGS", "")

	// step asks for the answer and checks whether go env ran, and that
	// the answer is go env's as it is now.
	step := func(t *testing.T, what string, wantRun bool) map[string]string {
		t.Helper()
		ran := false
		got, err := cachedGoEnv(root, dir, func() (map[string]string, error) {
			ran = true
			return runGoEnv(dir)
		})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if ran != wantRun {
			t.Errorf("%s: go env ran: %v, want %v", what, ran, wantRun)
		}
		want, err := runGoEnv(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: got %v, want go env's %v", what, got, want)
		}
		return got
	}
	step(t, "first ask", true)
	step(t, "nothing changed", false)

	write(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.21\n")
	step(t, "go.mod edited", true)
	step(t, "after the edit", false)

	write(t, filepath.Join(work, "go.work"), "go 1.22\n\nuse ./mod\n")
	if v := step(t, "go.work above", true); v["GOWORK"] != filepath.Join(work, "go.work") {
		t.Errorf("GOWORK = %q, want the new go.work", v["GOWORK"])
	}
	step(t, "with go.work", false)
	os.Remove(filepath.Join(work, "go.work"))
	step(t, "go.work removed", true)

	write(t, goenv, "GOFLAGS=-tags=extra\n")
	if v := step(t, "go env -w file written", true); v["GOFLAGS"] != "-tags=extra" {
		t.Errorf("GOFLAGS = %q, want the go env -w file's", v["GOFLAGS"])
	}
	step(t, "with the file", false)

	t.Setenv("GOAMD64", "v2")
	step(t, "environment changed", true)
	step(t, "in that environment", false)
	t.Setenv("MODKIT_TEST_UNRELATED", "1")
	step(t, "a variable go env does not read set", false)

	bin := filepath.Join(tmp, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	step(t, "PATH changed", true)
	step(t, "with that PATH", false)
	write(t, filepath.Join(bin, "cc"), "") // a C compiler found or not decides CGO_ENABLED
	step(t, "a program added to a PATH directory", true)
	step(t, "after it", false)

	t.Setenv("GOFLAGS", "-modfile=other.mod")
	step(t, "GOFLAGS names another go.mod", true)
	step(t, "never stored then", true)
}

// An answer the cache cannot vouch for is never used: a torn or foreign
// file, a print of other inputs, a directory others may write.
func TestGoEnvCacheRefusesWhatItCannotTrust(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "cache")
	if _, err := OpenCache(root); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "mod")
	write(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	runs := 0
	ask := func() {
		t.Helper()
		if _, err := cachedGoEnv(root, dir, func() (map[string]string, error) { runs++; return runGoEnv(dir) }); err != nil {
			t.Fatal(err)
		}
	}
	ask()
	ask()
	if runs != 1 {
		t.Fatalf("go env ran %d times for two asks, want 1", runs)
	}
	path := envPath(root, dir)
	for _, tt := range []struct {
		name  string
		spoil func()
	}{
		{"torn", func() { replace(t, path, `{"print":`) }},
		{"other print", func() { replace(t, path, `{"print":"00","vars":{"GOROOT":"/"}}`) }},
		{"writable by others", func() { os.Chmod(filepath.Dir(path), 0o777) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.spoil()
			before := runs
			ask()
			if runs != before+1 {
				t.Errorf("go env did not run")
			}
			os.Chmod(filepath.Dir(path), 0o700)
			ask()
			if runs != before+1 {
				t.Errorf("go env ran again once the answer was stored")
			}
		})
	}
}

// A cache others may write is neither read nor written.
func TestGoEnvCacheSkipsAnOpenCache(t *testing.T) {
	root := filepath.Join(t.TempDir(), "cache")
	if err := os.Mkdir(root, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(root, 0o777); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "mod")
	write(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	if runs := goEnvRuns(t, root, dir, 2); runs != 2 {
		t.Errorf("go env ran %d times for two asks, want 2", runs)
	}
	if _, err := os.Stat(filepath.Join(root, "env")); err == nil {
		t.Error("the host wrote into a cache others may write")
	}
}

// A go command whose GOROOT is not where the print looks (a wrapper
// script on PATH running another one) is asked every time.
func TestGoEnvCacheNeedsTheGOROOT(t *testing.T) {
	real, err := runGoEnv(".")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	root := filepath.Join(tmp, "cache")
	if _, err := OpenCache(root); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "mod")
	write(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	bin := filepath.Join(tmp, "wrapper", "bin")
	write(t, filepath.Join(bin, "go"), "#!/bin/sh\nexec "+filepath.Join(real["GOROOT"], "bin", "go")+` "$@"`+"\n")
	if err := os.Chmod(filepath.Join(bin, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	t.Setenv("GOROOT", "")
	if runs := goEnvRuns(t, root, dir, 2); runs != 2 {
		t.Errorf("go env ran %d times for two asks, want 2", runs)
	}
}

// goEnvRuns asks the cache in root for go env's answer in dir n times and
// returns how many times go env ran.
func goEnvRuns(t *testing.T, root, dir string, n int) int {
	t.Helper()
	runs := 0
	for range n {
		if _, err := cachedGoEnv(root, dir, func() (map[string]string, error) { runs++; return runGoEnv(dir) }); err != nil {
			t.Fatal(err)
		}
	}
	return runs
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// replace replaces a read-only cache file.
func replace(t *testing.T, path, data string) {
	t.Helper()
	os.Remove(path)
	if err := os.WriteFile(path, []byte(data), 0o400); err != nil {
		t.Fatal(err)
	}
}

//go:build linux || darwin

package modproc

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestSweepSocketDirs removes the socket directory of a host that is gone
// and nothing else: not a live host's, not a file or a link named like one,
// not another directory.
func TestSweepSocketDirs(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	gone := exec.Command(os.Args[0], "-test.run=^$")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := strconv.Itoa(gone.Process.Pid)
	live := strconv.Itoa(os.Getppid())
	mkdir := func(name string) {
		if err := os.Mkdir(filepath.Join(tmp, name), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	mkdir("modkit-echo-" + dead + "-1")                      // a dead host's: removed
	mkdir("modkit-echo-" + live + "-2")                      // a live host's
	mkdir("modkit-echo-" + strconv.Itoa(os.Getpid()) + "-3") // this host's
	mkdir("modkit-echo-notapid")                             // no owner
	mkdir("other")
	if err := os.WriteFile(filepath.Join(tmp, "modkit-echo-"+dead+"-4"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(tmp, "other"), filepath.Join(tmp, "modkit-echo-"+dead+"-5")); err != nil {
		t.Fatal(err)
	}
	if processAlive(gone.Process.Pid) {
		t.Skip("the exited process's id is in use again")
	}
	SweepSocketDirs()
	var got []string
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := []string{"modkit-echo-" + dead + "-4", "modkit-echo-" + dead + "-5", "modkit-echo-" + live + "-2",
		"modkit-echo-" + strconv.Itoa(os.Getpid()) + "-3", "modkit-echo-notapid", "other"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("after the sweep: got %q, want %q", got, want)
	}
}

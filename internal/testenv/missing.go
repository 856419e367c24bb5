package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// Missing ends a test that needs what this machine lacks. Locally it
// skips, saying what is missing and how to get it. When $CI is set it
// fails: CI installs everything the tests need, so a skip there would be
// a test that silently never runs.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := "missing " + fmt.Sprintf(format, args...)
	if os.Getenv("CI") != "" {
		t.Fatalf("%s ($CI is set: CI must provide it)", msg)
		return
	}
	t.Skip(msg)
}

// Getenv returns $key, or reports it [Missing], with why saying what it
// names and who sets it, like "the node tools folder
// (.ci/conformance.sh sets it)".
func Getenv(t testing.TB, key, why string) string {
	t.Helper()
	v := os.Getenv(key)
	if v == "" {
		Missing(t, "$%s: %s", key, why)
	}
	return v
}

// LookPath returns the path of program on $PATH, or reports it [Missing],
// with why saying what needs it or how to install it.
func LookPath(t testing.TB, program, why string) string {
	t.Helper()
	path, err := exec.LookPath(program)
	if err != nil {
		Missing(t, "%s on $PATH: %s", program, why)
	}
	return path
}

// NeedRoot reports root [Missing] unless the test runs as root, with why
// saying what the test does with it, like "mounting a tmpfs". .ci/run
// runs such tests under sudo on a runner that is not root.
func NeedRoot(t testing.TB, why string) {
	t.Helper()
	if os.Getuid() != 0 {
		Missing(t, "root: %s needs it (.ci/run runs this test under sudo)", why)
	}
}

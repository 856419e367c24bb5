// Package testenv holds what the tests of several packages share: the
// cache of the mods they build, the programs of this module built once for
// all of them ([Program], [Modhost]), a modhost server process to talk to, a
// module outside the source tree to write mods into ([ModuleDir]), and
// [Missing] for a test whose program, server or tools this machine lacks:
// it skips locally, naming what is missing, and fails when $CI is set.
// It is for tests only.
package testenv

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// ModCache returns the build cache the tests keep their mods in:
// modkit-test under the user cache directory, shared by every package's
// tests and across runs. Its keys hash the mods' sources, so a mod is built
// when it changed and otherwise never.
func ModCache() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "modkit-test"), nil
}

// ServeURL starts server, a modhost serving command, and returns what it
// prints on stderr after marker: the URL it serves. The server gets SIGTERM
// and is waited for when the test ends.
func ServeURL(t testing.TB, server *exec.Cmd, marker string) string {
	t.Helper()
	stderr, err := server.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		server.Process.Signal(syscall.SIGTERM)
		server.Wait()
	})
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if _, url, ok := strings.Cut(sc.Text(), marker); ok {
			go io.Copy(io.Discard, stderr)
			return url
		}
	}
	t.Fatalf("%s printed no %q", filepath.Base(server.Path), marker)
	return ""
}

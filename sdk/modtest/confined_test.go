//go:build linux

package modtest_test

import (
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/internal/testserver"
	"github.com/modkit/modkit/sdk/modtest"
	"github.com/modkit/modkit/sdk/modtest/internal/refusemod"
)

// enforced skips t unless this machine enforces promise, naming why.
func enforced(t *testing.T, promise string) {
	t.Helper()
	e, err := sandbox.Current()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range e.Rows {
		if r.Promise.Name == promise && !r.Enforced {
			t.Skipf("this machine does not enforce %q: %s", promise, r.Status)
		}
	}
}

// The tests of confinement run on Linux, the one OS whose mods a host
// confines (testserver's sinks are Linux's too).

// TestConfinedLikeTheHost checks that a tool doing what its mod's declared
// permissions do not allow fails under modtest with the host's words, and
// passes with Options.Unconfined.
func TestConfinedLikeTheHost(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go testserver.AcceptAll(ln)
	addr := ln.Addr().String()
	outside := filepath.Join(t.TempDir(), "outside.txt")
	const end = ". Retrying will not help; it needs a permission its author did not declare."
	tests := []struct {
		name, promise, tool, input string
		refused, unconfined        string
	}{
		{
			"connect to an undeclared port", sandbox.TCPConnect, "refusemod_dial", fmt.Sprintf(`{"address":%q}`, addr),
			"Tool failed: Permission denied: the refusemod mod may not connect to " + addr + " (it may connect only to " + refusemod.DeclaredConnect + ")" + end,
			"connected to " + addr,
		},
		{
			"write outside the workspace", "write, create and remove files", "refusemod_write", fmt.Sprintf(`{"path":%q}`, outside),
			"Tool failed: Permission denied: the refusemod mod may not use files outside the workspace except the paths it declares" + end,
			"wrote " + outside,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enforced(t, tt.promise)
			out := modtest.Run(t, refusemod.Modkit(), tt.tool, tt.input, &modtest.Options{Workspace: t.TempDir()})
			if out.Status != modtest.StatusFailed || out.Text != tt.refused {
				t.Errorf("confined: got %s %q, want failed %q", out.Status, out.Text, tt.refused)
			}
			out = modtest.Run(t, refusemod.Modkit(), tt.tool, tt.input, &modtest.Options{Workspace: t.TempDir(), Unconfined: true})
			if out.Status != modtest.StatusCompleted || out.Text != tt.unconfined {
				t.Errorf("unconfined: got %s %q, want completed %q", out.Status, out.Text, tt.unconfined)
			}
		})
	}
}

// TestConfinedCopyRunsInProcess checks that a mod value a test changed,
// which no confined process could serve, runs in the test's process.
func TestConfinedCopyRunsInProcess(t *testing.T) {
	g := refusemod.Modkit()
	g.Mod.Metadata.DisplayName = "Changed"
	out := modtest.Run(t, g, "refusemod_write", fmt.Sprintf(`{"path":%q}`, filepath.Join(t.TempDir(), "f")), nil)
	if out.Status != modtest.StatusCompleted || !strings.HasPrefix(out.Text, "wrote ") {
		t.Errorf("got %s %q, want completed in the test's process", out.Status, out.Text)
	}
}

// BenchmarkRun measures what confinement costs a call: a process of the
// test binary started, called once and stopped, against a call in the
// test's process. The tool dials the mod's declared address, where
// nothing listens.
func BenchmarkRun(b *testing.B) {
	input := fmt.Sprintf(`{"address":%q}`, refusemod.DeclaredConnect)
	for _, unconfined := range []bool{false, true} {
		b.Run(fmt.Sprintf("unconfined=%v", unconfined), func(b *testing.B) {
			opts := &modtest.Options{Workspace: b.TempDir(), Unconfined: unconfined}
			for b.Loop() {
				if out := modtest.Run(b, refusemod.Modkit(), "refusemod_dial", input, opts); out.Status != modtest.StatusFailed {
					b.Fatalf("got %s %q, want failed: nothing listens on %s", out.Status, out.Text, refusemod.DeclaredConnect)
				}
			}
		})
	}
}

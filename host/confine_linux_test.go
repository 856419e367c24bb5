package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/internal/testserver"
	"github.com/modkit/modkit/sdk"
)

// requireLandlock skips a test where the kernel cannot confine mods, and
// fails it in CI.
func requireLandlock(t *testing.T) {
	t.Helper()
	if err := sandbox.Check(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs a kernel that confines mods: %v", err)
		}
		t.Skipf("mods cannot be confined here: %v", err)
	}
}

// TestConfinement has a mod that declares nothing try what a hostile mod
// would, each denied with a sentence naming what it may not do, and a mod
// that declares the permissions do the same, allowed; signals and abstract
// unix sockets stay denied to both.
func TestConfinement(t *testing.T) {
	t.Parallel()
	requireLandlock(t)
	ws, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret")
	mustWrite(t, secret, "the user's secret")
	mustWrite(t, filepath.Join(ws, "notes.txt"), "a note")
	if err := os.Symlink(secret, filepath.Join(ws, "leak")); err != nil {
		t.Fatal(err)
	}
	goroot := goEnvVar(t, "GOROOT")

	addr, abstractName := testserver.Sinks(t)

	h := load(t, nil, hostileDir, permittedDir)
	try := attempter(t, h, sdk.Session{ID: "s", Workspace: ws})
	type attempt struct {
		op, target string
		// denied is what the model reads when the hostile mod tries it;
		// permitted, whether the permitted mod may.
		denied    string
		permitted bool
	}
	for _, a := range []attempt{
		{"read", secret, "may not use files outside the workspace except the paths it declares", false},
		{"read", filepath.Join(ws, "leak"), "may not use files outside the workspace", false},
		{"link", secret, "may not use files outside the workspace", false},
		{"read", filepath.Join(goroot, "VERSION"), "may not use files outside the workspace", true},
		{"write", filepath.Join(outside, "new"), "may not use files outside the workspace", false},
		{"write", filepath.Join(ws, "new"), "may not change files in the workspace (it declares no write access)", true},
		{"connect", addr, "may not connect to " + addr + " (it declares no network access)", true},
		{"run", "/bin/true", "may not run true (it declares no programs it may run)", true},
		{"signal", "parent", "may not signal other processes", false},
		{"abstract", abstractName, "may not connect to sockets outside its own process", false},
	} {
		res := try("hostile", a.op, a.target)
		if res.Status != host.StatusFailed || !strings.Contains(res.Text, "Permission denied: the hostile mod "+a.denied) {
			t.Errorf("hostile %s %s: got %s %q, want failed with %q", a.op, a.target, res.Status, res.Text, a.denied)
		}
		res = try("permitted", a.op, a.target)
		if got := res.Status == host.StatusCompleted; got != a.permitted {
			t.Errorf("permitted %s %s: got %s %q (%s), want allowed %v", a.op, a.target, res.Status, res.Text, res.Error, a.permitted)
		}
	}
	if res := try("hostile", "read", filepath.Join(ws, "notes.txt")); res.Status != host.StatusCompleted {
		t.Errorf("hostile reading its workspace: got %s %q, want completed", res.Status, res.Text)
	}
	want := "mod hostile tried to connect to " + addr + "; it declares no network access"
	if !strings.Contains(h.logs.String(), want) {
		t.Errorf("the operator's log lacks %q:\n%s", want, h.logs.String())
	}
}

// TestConfinementPerWorkspace checks that a confined mod reads the
// workspace of each session, from a process of its own.
func TestConfinementPerWorkspace(t *testing.T) {
	t.Parallel()
	requireLandlock(t)
	h := load(t, nil, hostileDir)
	for i := range 2 {
		ws := t.TempDir()
		file := filepath.Join(ws, "f")
		mustWrite(t, file, strconv.Itoa(i))
		in, _ := json.Marshal(map[string]string{"target": file})
		res, err := h.Call(context.Background(), &host.CallRequest{Tool: "hostile_read", Input: in, Session: sdk.Session{ID: "s", Workspace: ws}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != host.StatusCompleted {
			t.Errorf("workspace %d: got %s %q, want completed", i, res.Status, res.Text)
		}
	}
}

// attempter returns a function that calls the tool mod_op of h with
// target in sess.
func attempter(t *testing.T, h *testHost, sess sdk.Session) func(mod, op, target string) *host.CallResult {
	return func(mod, op, target string) *host.CallResult {
		t.Helper()
		in, _ := json.Marshal(map[string]string{"target": target})
		res, err := h.Call(context.Background(), &host.CallRequest{Tool: mod + "_" + op, Input: in, Session: sess})
		if err != nil {
			t.Fatalf("%s_%s %s: %v", mod, op, target, err)
		}
		return res
	}
}

func mustWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func goEnvVar(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// TestConfinementAtEveryABI has the mod that declares nothing try what
// it may not, with Landlock capped at each ABI from 0 to the newest
// (MODKIT_LANDLOCK_MAX_ABI): from the ABI that keeps a promise, the
// attempt is refused in the host's words; below it, the mod runs anyway
// (it comes from the user's own sources), the attempt succeeds unless the
// seccomp filter refuses it (the network of a mod that declares none), and
// the host names the promise among those it does not enforce, once in its
// log.
func TestConfinementAtEveryABI(t *testing.T) {
	// Not parallel: it sets MODKIT_LANDLOCK_MAX_ABI.
	kernelABI := sandbox.ABI()
	ws, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret")
	mustWrite(t, secret, "the user's secret")
	addr, abstractName := testserver.Sinks(t)
	seccomp := sandbox.SeccompSupported() == nil
	for n := 0; n <= sandbox.LatestABI; n++ {
		t.Run(fmt.Sprintf("ABI%d", n), func(t *testing.T) {
			if n > kernelABI {
				t.Skipf("the kernel offers Landlock ABI %d", kernelABI)
			}
			t.Setenv(sandbox.MaxABIEnv, strconv.Itoa(n))
			h := load(t, nil, hostileDir)
			gaps := h.Unconfined()
			if full := n >= sandbox.RequiredABI && seccomp; full != (gaps == nil) {
				t.Fatalf("Unconfined: got %v, want nil %v", gaps, full)
			}
			// A tool that declares nothing is listed read-only only where
			// nothing it might try passes.
			tools, err := h.Tools("")
			if err != nil {
				t.Fatal(err)
			}
			for _, tool := range tools {
				if got := tool.Annotations != nil && tool.Annotations.ReadOnly; got != (gaps == nil) {
					t.Errorf("%s: got read-only %v, want %v", tool.Name, got, gaps == nil)
				}
			}
			notices := strings.Count(h.logs.String(), "mods from your own sources run with the confinement this machine offers")
			if want := map[bool]int{true: 1, false: 0}[gaps != nil]; notices != want {
				t.Errorf("got %d notices in the log, want %d:\n%s", notices, want, h.logs.String())
			}
			for _, a := range []struct {
				op, target, promise string
				abi                 int
				// filtered: the seccomp filter refuses it at every ABI.
				filtered bool
				denied   string
			}{
				{"read", secret, "read files", 1, false, "may not use files outside the workspace except the paths it declares"},
				{"write", filepath.Join(outside, "new"+strconv.Itoa(n)), "write, create and remove files", 1, false, "may not use files outside the workspace"},
				{"run", "/bin/true", "run programs", 1, false, "may not run true (it declares no programs it may run)"},
				{"connect", addr, "TCP connect (by port)", 4, true, "may not connect to " + addr + " (it declares no network access)"},
				{"signal", "parent", "signals", 6, false, "may not signal other processes"},
				{"abstract", abstractName, "abstract unix sockets", 6, true, "may not connect to sockets outside its own process"},
			} {
				in, _ := json.Marshal(map[string]string{"target": a.target})
				res, err := h.Call(context.Background(), &host.CallRequest{Tool: "hostile_" + a.op, Input: in, Session: sdk.Session{ID: "s", Workspace: ws}})
				if err != nil {
					t.Fatal(err)
				}
				if n < a.abi && (gaps == nil || !strings.Contains(gaps.Error(), a.promise) || !strings.Contains(gaps.Error(), "Landlock")) {
					t.Errorf("%s: Unconfined got %v, want it to name %q and Landlock", a.op, gaps, a.promise)
				}
				if n >= a.abi || seccomp && a.filtered {
					if res.Status != host.StatusFailed || !strings.Contains(res.Text, "Permission denied: the hostile mod "+a.denied) {
						t.Errorf("%s %s: got %s %q, want failed with %q", a.op, a.target, res.Status, res.Text, a.denied)
					}
					continue
				}
				if res.Status != host.StatusCompleted {
					t.Errorf("%s %s: got %s %q (%s), want completed, Landlock ABI %d not enforcing it", a.op, a.target, res.Status, res.Text, res.Error, n)
				}
			}
		})
	}
}

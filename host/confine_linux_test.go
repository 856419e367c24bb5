package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/sandbox"
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

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go acceptAll(ln)
	abstractName := fmt.Sprintf("modkit-test-%d", os.Getpid())
	aln, err := net.Listen("unix", "@"+abstractName)
	if err != nil {
		t.Fatal(err)
	}
	defer aln.Close()
	go acceptAll(aln)

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
		{"connect", ln.Addr().String(), "may not connect to " + ln.Addr().String() + " (it declares no network access)", true},
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
	want := "mod hostile tried to connect to " + ln.Addr().String() + "; it declares no network access"
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

func acceptAll(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		c.Close()
	}
}

// TestUnconfinedIsRefused loads a host as on a kernel without Landlock:
// no mod starts, and the error says why and how to allow it, unless the
// operator allows unconfined mods.
func TestUnconfinedIsRefused(t *testing.T) {
	t.Parallel()
	sandbox.Disable(true)
	refusing := load(t, nil, quickDir)
	allowing := load(t, &host.Options{AllowUnconfined: true}, quickDir)
	sandbox.Disable(false)
	if refusing.Unconfined() == nil || allowing.Unconfined() == nil {
		t.Fatal("Unconfined: got nil, want why mods cannot be confined")
	}
	res := call(t, refusing, "quick_echo", `{"text":"x"}`)
	if res.Status != host.StatusFailed || !strings.Contains(res.Error, "mods cannot be confined here: confinement is disabled") ||
		!strings.Contains(res.Error, "--allow-unconfined") {
		t.Errorf("refusing host: got %s %q, want failed saying why and naming --allow-unconfined", res.Status, res.Error)
	}
	if res := call(t, allowing, "quick_echo", `{"text":"x"}`); res.Status != host.StatusCompleted {
		t.Errorf("allowing host: got %s %q, want completed", res.Status, res.Error)
	}
}

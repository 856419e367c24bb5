package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/testenv"
	"github.com/modkit/modkit/internal/testserver"
)

// TestStartConfinesTheProcess runs cat confined to one directory: it reads
// a file there, not one beside it, and the test's own process, which
// started it, stays unconfined.
func TestStartConfinesTheProcess(t *testing.T) {
	if err := Check(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs a kernel that confines mods: %v", err)
		}
		t.Skip(err)
	}
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat")
	}
	allowed, denied := t.TempDir(), t.TempDir()
	for _, dir := range []string{allowed, denied} {
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte("text"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := &Policy{ABI: ABI(), Read: []string{allowed}, ReadExec: []string{"/lib", "/lib64", "/usr/lib", "/usr/lib64", "/etc/ld.so.cache"}, Exec: []string{cat}, Write: []string{os.DevNull}}
	run := func(file string) (string, error) {
		cmd := exec.Command(cat, file)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		exited := make(chan struct{})
		if err := Start(p, cmd.Start, exited); err != nil {
			return "", err
		}
		err := cmd.Wait()
		close(exited)
		return out.String(), err
	}
	if out, err := run(filepath.Join(allowed, "f")); err != nil || out != "text" {
		t.Errorf("reading the allowed file: got %q, %v; want text", out, err)
	}
	if out, err := run(filepath.Join(denied, "f")); err == nil || !strings.Contains(out, "Permission denied") {
		t.Errorf("reading the other file: got %q, %v; want permission denied", out, err)
	}
	if _, err := os.ReadFile(filepath.Join(denied, "f")); err != nil {
		t.Errorf("the test's process is confined too: %v", err)
	}
}

// unprivilegedEnv names the helper program for TestEveryABI when it runs
// again as an unprivileged user.
const unprivilegedEnv = "SANDBOX_TEST_ATTEMPT_AS_USER"

// TestEveryABI has a process confined at every Landlock ABI from 0 to
// LatestABI, through MODKIT_LANDLOCK_MAX_ABI, try what a mod with no
// permissions may not do, with Landlock alone and with the seccomp filter
// too: each attempt is refused from the ABI that keeps its promise; below
// it, allowed with Landlock alone, and with the filter refused where the
// filter closes the network; the report says so. Run as root, it runs
// again as the nobody user.
func TestEveryABI(t *testing.T) {
	helper := os.Getenv(unprivilegedEnv)
	if helper == "" {
		helper = buildAttempt(t)
	}
	kernelABI := ABI()
	addr, abstract := testserver.Sinks(t)
	for n := 0; n <= LatestABI; n++ {
		t.Run(fmt.Sprintf("ABI%d", n), func(t *testing.T) {
			if n > kernelABI {
				t.Skipf("the kernel offers Landlock ABI %d", kernelABI)
			}
			t.Setenv(MaxABIEnv, strconv.Itoa(n))
			e, err := Current()
			if err != nil {
				t.Fatal(err)
			}
			if e.ABI != n {
				t.Fatalf("Current().ABI: got %d, want %d", e.ABI, n)
			}
			rows := map[string]Row{}
			for _, r := range e.Rows {
				rows[r.Name] = r
			}
			outside := t.TempDir()
			file := filepath.Join(outside, "f")
			if err := os.WriteFile(file, []byte("secret"), 0o666); err != nil {
				t.Fatal(err)
			}
			layers := []bool{false} // Landlock alone, then with the filter
			if e.Seccomp == nil {
				layers = append(layers, true)
			}
			for _, a := range []struct {
				op, target, promise string
				// filtered: the seccomp filter refuses it to a process
				// that declares no network, at every ABI.
				filtered bool
			}{
				{"read", file, "read files", false},
				{"write", filepath.Join(outside, "new"), "write, create and remove files", false},
				{"truncate", file, "truncate files", false},
				{"exec", "/bin/true", "run programs", false},
				{"connect", addr, "TCP connect (by port)", true},
				{"bind", "127.0.0.1:0", "TCP bind", true},
				{"abstract", abstract, "abstract unix sockets", true},
				{"signal", "parent", "signals", false},
			} {
				row, ok := rows[a.promise]
				if !ok {
					t.Fatalf("the report has no row %q", a.promise)
				}
				if want := n >= row.ABI; row.Enforced != want {
					t.Errorf("row %q: got enforced %v (%s), want %v", a.promise, row.Enforced, row.Status, want)
				}
				if !row.Enforced && !strings.HasPrefix(row.Status, "not enforced: "+MaxABIEnv+" caps Landlock at ABI "+strconv.Itoa(n)) && n < kernelABI {
					t.Errorf("row %q: got %q, want it to name the cap", a.promise, row.Status)
				}
				// The network and signals rows say what the filter keeps
				// below the ABI that keeps them.
				if says := e.Seccomp == nil && row.ABI >= 4; !row.Enforced && says != strings.Contains(row.Status, "; seccomp refuses") {
					t.Errorf("row %q: got %q, want it to say what seccomp refuses: %v", a.promise, row.Status, says)
				}
				for _, seccomp := range layers {
					p := &Policy{ABI: n, Seccomp: seccomp, Read: []string{t.TempDir()}, Exec: []string{helper}, Write: []string{os.DevNull}}
					refused := row.Enforced || seccomp && a.filtered
					code, out := attempt(t, p, helper, a.op, a.target)
					switch {
					case refused && code != 3:
						t.Errorf("%s %s, seccomp %v: got exit %d (%s), want refused: %s", a.op, a.target, seccomp, code, out, row.Status)
					case !refused && code != 0:
						t.Errorf("%s %s, seccomp %v: got exit %d (%s), want allowed, as the report says: %s", a.op, a.target, seccomp, code, out, row.Status)
					}
				}
			}
		})
	}
	if os.Getenv(unprivilegedEnv) == "" {
		asNobody(t, helper)
	}
}

// attempt runs helper OP TARGET confined by p, and returns its exit code
// and output.
func attempt(t *testing.T, p *Policy, helper, op, target string) (int, string) {
	t.Helper()
	cmd := exec.Command(helper, op, target)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	exited := make(chan struct{})
	if err := Start(p, cmd.Start, exited); err != nil {
		t.Fatalf("%s %s: %v", op, target, err)
	}
	err := cmd.Wait()
	close(exited)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%s %s: %v", op, target, err)
	}
	return cmd.ProcessState.ExitCode(), strings.TrimSpace(out.String())
}

// buildAttempt builds testdata/attempt, statically linked, into a
// directory every user may read.
func buildAttempt(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "attempt")
	cmd := exec.Command("go", "build", "-o", bin, "./testdata/attempt")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the helper: %v\n%s", err, out)
	}
	return bin
}

// asNobody runs TestEveryABI again as the nobody user, when the test runs
// as root, so that an unprivileged process confines itself too.
func asNobody(t *testing.T, helper string) {
	if os.Getuid() != 0 {
		return // the test ran unprivileged already
	}
	t.Run("nobody", func(t *testing.T) {
		out := testenv.RunAsNobody(t, filepath.Dir(helper), "", "^TestEveryABI$", unprivilegedEnv+"="+helper)
		if !strings.Contains(out, "--- PASS: TestEveryABI/ABI1") {
			t.Fatalf("as nobody, the levels did not run:\n%s", out)
		}
	})
}

package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/testenv"
	"github.com/modkit/modkit/sdk"
)

// prebuiltEnv names the prebuilt cache a run of the tests as nobody loads
// its mods from: the shared cache is root's, and nobody runs no go
// command.
const prebuiltEnv = "MODKIT_HOST_TEST_PREBUILT"

// cacheDir holds the test mods' binaries for every test in the package and
// across runs, like Go's own build cache: its keys hash the mods' sources,
// so a mod is built when it changed and otherwise never. Tests that need a
// cache of their own copy binaries from it.
var cacheDir string

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		runHelper()
	}
	if addr := os.Getenv(dialHelperEnv); addr != "" {
		runDialHelper(addr)
	}
	if spec := os.Getenv(showKeymodEnv); spec != "" {
		runShowKeymod(spec)
	}
	testenv.LeanLinks() // the mods the tests build
	if dir := os.Getenv(prebuiltEnv); dir != "" {
		// Run unprivileged from a prebuilt cache: nothing is built.
		cacheDir = dir
		os.Exit(m.Run())
	}
	var err error
	if cacheDir, err = testenv.ModCache(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := prebuild(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

const (
	crashyDir = "testdata/mods/crashy"
	// hostileDir and permittedDir try what confinement denies, declaring
	// nothing and the permissions for it.
	hostileDir   = "testdata/mods/hostile"
	permittedDir = "testdata/mods/permitted"
)

// prebuild builds every test mod that builds, once per test binary, so that
// no test waits for a build it is not about.
func prebuild() error {
	h, err := host.Load(append([]string{crashyDir, quickDir, "testdata/mods/badstart", approvingDir, askingDir, clientsideDir, hostileDir, permittedDir}, exampleDirs...), &host.Options{CacheDir: cacheDir})
	if err != nil {
		return err
	}
	defer h.Close()
	return host.Build(h)
}

// deadline is when a test stops waiting for an event and fails: shortly
// before the test binary's -timeout, so that a busy machine makes tests
// slower, never failed.
func deadline(t testing.TB) time.Time {
	if tt, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if d, ok := tt.Deadline(); ok {
			return d.Add(-time.Until(d) / 10)
		}
	}
	return time.Now().Add(5 * time.Minute)
}

// waitFor polls cond until it holds, and fails the test at its deadline.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for end := deadline(t); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("gave up waiting: %s", what)
		}
	}
}

// callDone is the outcome of a call made on another goroutine.
type callDone struct {
	res *host.CallResult
	err error
}

// startCall runs a call on its own goroutine. started is closed at the
// handler's first status update; done receives the outcome.
func startCall(h *testHost, req *host.CallRequest) (started <-chan struct{}, done <-chan callDone) {
	st, dn := make(chan struct{}), make(chan callDone, 1)
	var once sync.Once
	req.OnActivity = func(e host.ActivityEvent) {
		if e.Update.Kind == sdk.ActivityStatus {
			once.Do(func() { close(st) })
		}
	}
	go func() {
		res, err := h.Call(context.Background(), req)
		dn <- callDone{res, err}
	}()
	return st, dn
}

// await waits for a call started with startCall to end and fails the test
// when no call happened.
func await(t testing.TB, done <-chan callDone) *host.CallResult {
	t.Helper()
	d := <-done
	if d.err != nil {
		t.Fatalf("Call: %v", d.err)
	}
	return d.res
}

// copyCache returns a new cache directory holding a copy of the shared
// cache's binaries of the mods in dirs, with their build records: the
// cache a host that built them leaves, without a build.
func copyCache(t testing.TB, dirs ...string) string {
	t.Helper()
	h, err := host.Load(dirs, &host.Options{CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	cache := t.TempDir()
	for _, m := range h.Mods() {
		bin, rec, err := host.Binary(h, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []struct {
			path, sub string
			perm      os.FileMode
		}{{bin, "bin", 0o500}, {rec, "rec", 0o400}} {
			if err := os.MkdirAll(filepath.Join(cache, f.sub), 0o700); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(f.path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(cache, f.sub, filepath.Base(f.path)), data, f.perm); err != nil {
				t.Fatal(err)
			}
		}
	}
	return cache
}

// logBuffer collects log records as text, safely for concurrent use.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type testHost struct {
	*host.Host
	// ws, when set, is the workspace of the sessions of askCall.
	ws       string
	logs     *logBuffer
	progress *logBuffer
	cacheDir string
}

// load loads dirs with the shared cache and a pinned date, and closes the
// host when the test ends.
func load(t testing.TB, opts *host.Options, dirs ...string) *testHost {
	t.Helper()
	if opts == nil {
		opts = &host.Options{}
	}
	th := &testHost{logs: &logBuffer{}, progress: &logBuffer{}}
	if opts.CacheDir == "" {
		opts.CacheDir = cacheDir
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(th.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if opts.Progress == nil {
		opts.Progress = th.progress
	}
	if opts.Today == nil {
		opts.Today = func() string { return "2026-01-02" }
	}
	h, err := host.Load(dirs, opts)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	th.Host = h
	th.cacheDir = opts.CacheDir
	t.Cleanup(func() { h.Close() })
	return th
}

func session(t testing.TB) sdk.Session {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return sdk.Session{ID: "s1", Workspace: wd}
}

// inWorkspace is a session working in dir: a test mod that writes there,
// as it declares, may.
func inWorkspace(dir string) sdk.Session { return sdk.Session{ID: "s1", Workspace: dir} }

// call runs a tool and fails the test when no call happened.
func call(t testing.TB, h *testHost, tool, input string) *host.CallResult {
	t.Helper()
	res, err := h.Call(context.Background(), &host.CallRequest{Tool: tool, Input: json.RawMessage(input), Session: session(t)})
	if err != nil {
		t.Fatalf("Call(%s): %v", tool, err)
	}
	return res
}

func wantStatus(t testing.TB, res *host.CallResult, want host.Status) {
	t.Helper()
	if res.Status != want {
		t.Fatalf("%s: got status %s (error %q, text %q), want %s", res.Tool, res.Status, res.Error, res.Text, want)
	}
}

func abs(t testing.TB, dir string) string {
	t.Helper()
	a, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

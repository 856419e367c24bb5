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

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// cacheDir is shared by every test in the package, so each mod is built once
// per test run.
var cacheDir string

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		runHelper()
	}
	dir, err := os.MkdirTemp("", "modkit-host-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cacheDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const crashyDir = "testdata/mods/crashy"

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

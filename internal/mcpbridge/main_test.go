package mcpbridge_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpbridge"
	"github.com/modkit/modkit/internal/testenv"
)

// cacheDir holds mod binaries for every test, shared with the other
// packages' tests and across runs: its keys hash the mods' sources, so a
// mod is built when it changed and otherwise never.
var cacheDir string

func TestMain(m *testing.M) {
	testenv.LeanLinks() // the mods the tests build
	var err error
	if cacheDir, err = testenv.ModCache(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// Mods the tests serve.
var (
	crashyDir      = filepath.Join("..", "..", "host", "testdata", "mods", "crashy")
	conformanceDir = filepath.Join("testdata", "conformance")
)

// loadHost loads mod directories with the shared cache and a pinned date and
// closes the host when the test ends.
func loadHost(t testing.TB, dirs ...string) *host.Host {
	t.Helper()
	h, err := host.Load(dirs, &host.Options{
		CacheDir: cacheDir,
		Progress: io.Discard,
		Today:    func() string { return "2026-01-02" },
	})
	if err != nil {
		t.Fatalf("load %v: %v", dirs, err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// notes collects the notifications a client receives.
type notes struct {
	mu       sync.Mutex
	progress []*mcp.ProgressNotificationParams
	logs     []*mcp.LoggingMessageParams
	changed  chan struct{}
}

func newNotes() *notes { return &notes{changed: make(chan struct{}, 100)} }

func (n *notes) clientOptions() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			n.mu.Lock()
			n.progress = append(n.progress, req.Params)
			n.mu.Unlock()
			n.changed <- struct{}{}
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			n.mu.Lock()
			n.logs = append(n.logs, req.Params)
			n.mu.Unlock()
			n.changed <- struct{}{}
		},
	}
}

func (n *notes) snapshot() ([]*mcp.ProgressNotificationParams, []*mcp.LoggingMessageParams) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]*mcp.ProgressNotificationParams(nil), n.progress...), append([]*mcp.LoggingMessageParams(nil), n.logs...)
}

// connect serves b through the bridge over in-memory transports and returns
// a connected client session.
func connect(t testing.TB, b mcpbridge.Backend, opts *mcpbridge.Options, n *notes) *mcp.ClientSession {
	t.Helper()
	var copts *mcp.ClientOptions
	if n != nil {
		copts = n.clientOptions()
	}
	return connectClient(t, b, opts, copts)
}

// uiClient declares the MCP Apps extension, as MCP Apps hosts do.
func uiClient() *mcp.ClientOptions {
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(mcpbridge.UIExtension, map[string]any{"mimeTypes": []string{mcpbridge.AppMIMEType}})
	return &mcp.ClientOptions{Capabilities: caps}
}

// connectClient is connect with the client's options.
func connectClient(t testing.TB, b mcpbridge.Backend, opts *mcpbridge.Options, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpbridge.NewServer(b, opts)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		cancel()
	})
	return cs
}

// callCtx bounds one test call.
func callCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// settle waits until n holds at least progress progress notifications and
// logs log notifications, or a short while when both are zero: the SDK's
// client may handle notifications after the call they belong to returned.
func (n *notes) settle(t testing.TB, progress, logs int) {
	t.Helper()
	wait := 5 * time.Second
	if progress == 0 && logs == 0 {
		wait = 100 * time.Millisecond
	}
	deadline := time.After(wait)
	for {
		p, l := n.snapshot()
		if (progress > 0 || logs > 0) && len(p) >= progress && len(l) >= logs {
			return
		}
		select {
		case <-n.changed:
		case <-deadline:
			return
		}
	}
}

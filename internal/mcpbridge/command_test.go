package mcpbridge_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/testenv"
)

// modhostBinary returns modhost built from this checkout, shared with
// the other packages' tests ([testenv.Modhost]), or the binary
// $MODKIT_MODHOST names.
func modhostBinary(t testing.TB) string {
	t.Helper()
	return testenv.Modhost(t)
}

// connectCommand starts modhost with args and connects a client to it over
// stdio.
func connectCommand(t testing.TB, n *notes, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(modhostBinary(t), args...)
	cmd.Env = append(os.Environ(), "MODKIT_CACHE="+cacheDir)
	var copts *mcp.ClientOptions
	if n != nil {
		copts = n.clientOptions()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to %v: %v", cmd.Args, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestCommandTransport drives modhost mcp over stdio as an MCP client
// process would.
func TestCommandTransport(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds modhost")
	}
	n := newNotes()
	// crashy_wait writes its marker in the workspace, as it may.
	ws := t.TempDir()
	cs := connectCommand(t, n, "--mods", crashyDir, "--workspace", ws, "mcp")

	t.Run("list", func(t *testing.T) {
		res, err := cs.ListTools(callCtx(t), nil)
		if err != nil {
			t.Fatalf("ListTools: %v", err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
		}
		for _, want := range []string{"crashy_echo", "crashy_report", "crashy_wait"} {
			if !slices.Contains(names, want) {
				t.Errorf("tools %v lack %s", names, want)
			}
		}
	})

	t.Run("call with progress and logging", func(t *testing.T) {
		params := &mcp.CallToolParams{
			Name:      "crashy_flood",
			Arguments: map[string]any{"n": 2},
			Meta:      mcp.Meta{mcp.MetaKeyLogLevel: "info"},
		}
		params.SetProgressToken(7)
		res, err := cs.CallTool(callCtx(t), params)
		if err != nil || res.IsError {
			t.Fatalf("CallTool: %v %s", err, mustJSON(t, res))
		}
		if text := res.Content[0].(*mcp.TextContent).Text; text != "sent 2" {
			t.Errorf("text: got %q, want %q", text, "sent 2")
		}
		n.settle(t, 2, 2)
		progress, logs := n.snapshot()
		var gotProgress, gotLogs []string
		for _, p := range progress {
			gotProgress = append(gotProgress, p.Message)
		}
		for _, l := range logs {
			gotLogs = append(gotLogs, l.Data.(string))
		}
		if want := []string{"Flood", "done"}; !slices.Equal(gotProgress, want) {
			t.Errorf("progress: got %q, want %q", gotProgress, want)
		}
		if want := []string{"entry 1", "entry 2"}; !slices.Equal(gotLogs, want) {
			t.Errorf("logs: got %q, want %q", gotLogs, want)
		}
	})

	t.Run("error result", func(t *testing.T) {
		res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_fail"})
		if err != nil {
			t.Fatalf("CallTool: %v", err)
		}
		if !res.IsError || res.Content[0].(*mcp.TextContent).Text != "Tool failed: nothing to do here" {
			t.Errorf("got %s, want an isError result saying %q", mustJSON(t, res), "Tool failed: nothing to do here")
		}
	})

	t.Run("crash", func(t *testing.T) {
		res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_crash", Arguments: map[string]any{"how": "exit"}})
		if err != nil {
			t.Fatalf("CallTool: %v", err)
		}
		if !res.IsError {
			t.Fatalf("crash: got %s, want an isError result", mustJSON(t, res))
		}
		res, err = cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_echo", Arguments: map[string]any{"text": "back"}})
		if err != nil || res.IsError {
			t.Fatalf("call after crash: %v %s", err, mustJSON(t, res))
		}
	})

	t.Run("cancel", func(t *testing.T) {
		marker := filepath.Join(ws, "cancelled")
		ctx, cancel := context.WithCancel(callCtx(t))
		done := make(chan error, 1)
		params := &mcp.CallToolParams{Name: "crashy_wait", Arguments: map[string]any{"marker": marker}}
		params.SetProgressToken("wait-cmd")
		go func() {
			_, err := cs.CallTool(ctx, params)
			done <- err
		}()
		// The "waiting" status says the handler runs: cancel it then.
		for running := false; !running; {
			select {
			case <-n.changed:
			case <-time.After(time.Minute):
				t.Fatal("no progress from crashy_wait within a minute")
			}
			progress, _ := n.snapshot()
			for _, p := range progress {
				running = running || p.ProgressToken == "wait-cmd"
			}
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("CallTool after cancel: got %v, want context.Canceled", err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			if data, err := os.ReadFile(marker); err == nil && len(data) > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the handler did not see the cancellation within 10s")
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// TestCommandAgent checks that --agent limits what modhost mcp serves.
func TestCommandAgent(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds modhost")
	}
	cs := connectCommand(t, nil, "--mods", crashyDir, "--agent", "echoer", "mcp")
	res, err := cs.ListTools(callCtx(t), nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	if want := []string{"crashy_echo"}; !slices.Equal(names, want) {
		t.Errorf("tools: got %v, want %v", names, want)
	}
	call, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_fail"})
	if err == nil || !strings.Contains(err.Error(), "crashy_fail") {
		t.Errorf("calling a tool outside the allowlist: got %v %s, want an unknown-tool error", err, mustJSON(t, call))
	}
}

// TestCommandHTTP starts modhost mcp --http on a free loopback port, calls a
// tool over streamable HTTP, and stops the server with SIGTERM.
func TestCommandHTTP(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds modhost")
	}
	cmd := exec.Command(modhostBinary(t), "--mods", crashyDir, "mcp", "--http", ":0")
	cmd.Env = append(os.Environ(), "MODKIT_CACHE="+cacheDir)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "modhost: serving MCP at "); ok {
				urls <- u
			}
		}
	}()
	var url string
	select {
	case url = <-urls:
	case <-time.After(time.Minute):
		t.Fatal("modhost mcp --http printed no URL within a minute")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Errorf("URL %s: want http://127.0.0.1:PORT/mcp (loopback when the host is omitted)", url)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(callCtx(t), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	res, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "crashy_echo", Arguments: map[string]any{"text": "over http"}})
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "over http" {
		t.Fatalf("CallTool: %v %s", err, mustJSON(t, res))
	}
	cs.Close()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("modhost mcp after SIGTERM: %v, want exit status 0", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("modhost mcp still runs 20s after SIGTERM")
	}
}

//go:build linux

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/modreload"
	"github.com/modkit/modkit/internal/testenv"
)

// liveySource is a mod whose tools say their version: livey_echo in its
// description and its answer, livey_hold in its answer, given once the
// file release exists.
func liveySource(version string) string {
	return `package livey

import (
	"os"
	"time"

	"github.com/modkit/modkit/sdk"
)

// EchoIn is the echo's input.
type EchoIn struct {
	// Text is echoed.
	Text string ` + "`json:\"text\"`" + `
}

// HoldIn names the files of a held call.
type HoldIn struct {
	// Started is written when the call starts.
	Started string ` + "`json:\"started\"`" + `
	// Release ends the call once it exists.
	Release string ` + "`json:\"release\"`" + `
}

// Mod is a mod the live reload test edits.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata:    sdk.Metadata{ID: "livey", Description: "Edited while served."},
	Permissions: sdk.Permissions{WriteWorkspace: true},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[EchoIn]{
			Name:        "livey_echo",
			Description: "Echoes its text, version ` + version + `. Call it to test reloads.",
			Activity:    "Echoing…",
			Run: func(tc *sdk.ToolContext, in EchoIn) (sdk.Result, error) {
				return sdk.Text("` + version + ` " + in.Text), nil
			},
		},
		sdk.PlainTool[HoldIn]{
			Name:        "livey_hold",
			Description: "Holds until released. Call it to test reloads.",
			Activity:    "Holding…",
			Run: func(tc *sdk.ToolContext, in HoldIn) (sdk.Result, error) {
				os.WriteFile(in.Started, []byte("started"), 0o644)
				for {
					if _, err := os.Stat(in.Release); err == nil {
						return sdk.Text("` + version + ` held"), nil
					}
					select {
					case <-tc.Done():
						return sdk.Result{}, tc.Err()
					case <-time.After(10 * time.Millisecond):
					}
				}
			},
		},
	}},
})
`
}

// TestMCPLiveReload edits a mod under modhost mcp, over stdio and HTTP,
// with a call in flight and calls going on: the client hears the tool
// list changed and lists the new description, the call in flight answers
// from the old version, each call answers, and later calls reach the new
// version. A broken edit keeps the new version serving, and stderr says
// where the edit is wrong.
func TestMCPLiveReload(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			dir := testenv.ModuleDir(t)
			src := filepath.Join(dir, "livey.go")
			edit := func(content string) {
				t.Helper()
				tmp := filepath.Join(dir, ".livey.go.tmp")
				if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(tmp, src); err != nil {
					t.Fatal(err)
				}
			}
			edit(liveySource("v1"))
			if ps := modreload.Generate(dir); len(ps) > 0 {
				t.Fatalf("generate v1: %v", ps)
			}

			args := []string{"mcp"}
			if transport == "http" {
				args = append(args, "--http", "127.0.0.1:0")
			}
			cmd := modhostCommand(t, args...)
			cmd.Env = append(cmd.Env, "MODHOST_MODS="+dir)
			stderrR, stderrW := io.Pipe()
			cmd.Stderr = stderrW
			lines := make(chan string, 100)
			var stderr strings.Builder
			var stderrMu sync.Mutex
			go func() {
				sc := bufio.NewScanner(stderrR)
				for sc.Scan() {
					stderrMu.Lock()
					stderr.WriteString(sc.Text() + "\n")
					stderrMu.Unlock()
					select {
					case lines <- sc.Text():
					default:
					}
				}
			}()
			t.Cleanup(func() {
				if t.Failed() || testing.Verbose() {
					stderrMu.Lock()
					t.Logf("modhost's stderr:\n%s", stderr.String())
					stderrMu.Unlock()
				}
			})
			// waitLine waits for a line of stderr matching re.
			waitLine := func(re string) string {
				t.Helper()
				for line := range lines {
					if regexp.MustCompile(re).MatchString(line) {
						return line
					}
				}
				t.Fatalf("stderr ended before a line matching %s", re)
				return ""
			}

			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			changed := make(chan struct{}, 10)
			client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
			})
			var ct mcp.Transport
			if transport == "http" {
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); stderrW.Close() })
				url := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(waitLine(`serving MCP at`))
				ct = &mcp.StreamableClientTransport{Endpoint: url + "/mcp"}
			} else {
				ct = &mcp.CommandTransport{Command: cmd}
				t.Cleanup(func() { stderrW.Close() })
			}
			cs, err := client.Connect(ctx, ct, nil)
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			if caps := cs.InitializeResult().Capabilities; caps.Tools == nil || !caps.Tools.ListChanged {
				t.Errorf("capabilities: got tools %+v, want listChanged", caps.Tools)
			}
			describe := func() string {
				t.Helper()
				res, err := cs.ListTools(ctx, nil)
				if err != nil {
					t.Fatalf("tools/list: %v", err)
				}
				for _, tool := range res.Tools {
					if tool.Name == "livey_echo" {
						return tool.Description
					}
				}
				t.Fatalf("tools/list: no livey_echo in %d tools", len(res.Tools))
				return ""
			}
			call := func(name string, input map[string]any) (string, error) {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: input})
				if err != nil {
					return "", err
				}
				text := ""
				for _, c := range res.Content {
					if tc, ok := c.(*mcp.TextContent); ok {
						text += tc.Text
					}
				}
				if res.IsError {
					return "", fmt.Errorf("tool error: %s", text)
				}
				return text, nil
			}
			if got, want := describe(), "Echoes its text, version v1. Call it to test reloads."; got != want {
				t.Fatalf("v1: got description %q, want %q", got, want)
			}
			if got, err := call("livey_echo", map[string]any{"text": "a"}); err != nil || got != "v1 a" {
				t.Fatalf("v1: got %q, %v, want v1 a", got, err)
			}

			// A call in flight, and calls one after another, while the
			// mod is edited.
			ws := testWorkspace(t)
			started, release := filepath.Join(ws, "started"), filepath.Join(ws, "release")
			held := make(chan string, 1)
			go func() {
				got, err := call("livey_hold", map[string]any{"started": started, "release": release})
				if err != nil {
					got = err.Error()
				}
				held <- got
			}()
			waitFor(t, started)
			stopCalls := make(chan struct{})
			type answers struct {
				n      int
				failed []string
				last   string
			}
			calls := make(chan answers, 1)
			go func() {
				var a answers
				for i := 0; i < 100000; i++ {
					select {
					case <-stopCalls:
						calls <- a
						return
					default:
					}
					got, err := call("livey_echo", map[string]any{"text": fmt.Sprint(i)})
					a.n++
					if want1, want2 := "v1 "+fmt.Sprint(i), "v2 "+fmt.Sprint(i); err != nil || got != want1 && got != want2 {
						a.failed = append(a.failed, fmt.Sprintf("call %d: got %q, %v", i, got, err))
					}
					a.last = got
				}
				calls <- a
			}()

			edit(liveySource("v2"))
			select {
			case <-changed:
			case <-ctx.Done():
				t.Fatal("no notifications/tools/list_changed after the edit")
			}
			waitLine(`^modhost: reloaded `)
			if got, want := describe(), "Echoes its text, version v2. Call it to test reloads."; got != want {
				t.Errorf("v2: got description %q, want %q", got, want)
			}
			if got, err := call("livey_echo", map[string]any{"text": "b"}); err != nil || got != "v2 b" {
				t.Errorf("after the edit: got %q, %v, want v2 b", got, err)
			}
			close(stopCalls)
			a := <-calls
			t.Logf("%d calls answered during the reload", a.n)
			if len(a.failed) > 0 {
				t.Errorf("%d of %d calls during the reload failed: %s", len(a.failed), a.n, strings.Join(a.failed, "; "))
			}
			select {
			case got := <-held:
				t.Fatalf("the held call answered %q before it was released", got)
			default:
			}
			if err := os.WriteFile(release, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if got := <-held; got != "v1 held" {
				t.Errorf("the call in flight: got %q, want v1 held, from the old version", got)
			}

			// A broken edit: the old version serves on.
			broken := liveySource("v3")
			broken = strings.Replace(broken, `return sdk.Text("v3 " + in.Text), nil`, `return sdk.Text("v3 " + in.Text), nil +`, 1)
			edit(broken)
			line := waitLine(`^modhost: reload: .*livey\.go:\d+:\d+: `)
			if !strings.Contains(line, dir) {
				t.Errorf("the broken edit: got %q, want it to name the mod's directory %s", line, dir)
			}
			waitLine(`serving the mods as they were`)
			if got, err := call("livey_echo", map[string]any{"text": "c"}); err != nil || got != "v2 c" {
				t.Errorf("after a broken edit: got %q, %v, want v2 c", got, err)
			}
			if got, want := describe(), "Echoes its text, version v2. Call it to test reloads."; got != want {
				t.Errorf("after a broken edit: got description %q, want %q", got, want)
			}
		})
	}
}

// testMCPFollowsLock installs a published mod under modhost mcp by
// writing mods.lock, then removes it: the client hears each change, and
// the installed mod's tool is listed and answers while it is pinned.
// TestInstallScripts runs it, with the greet it prepared.
func init() { followsLock = testMCPFollowsLock }

func testMCPFollowsLock(t *testing.T, prepared preparedGreet) {
	t.Parallel()
	lock, err := os.ReadFile(filepath.Join(filepath.Dir(prepared.modCache), "mods.lock"))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	cmd := modhostCommand(t, "mcp")
	cmd.Dir = work
	// Offline, from the module cache modhost get filled.
	cmd.Env = append(cmd.Env, "GOMODCACHE="+prepared.modCache, "MODKIT_CACHE="+prepared.cache, "GOPROXY=off", "GOSUMDB=off", "GOFLAGS=-mod=mod")
	logStderr(t, cmd, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	changed := make(chan struct{}, 10)
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	listed := func() bool {
		t.Helper()
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		for _, tool := range res.Tools {
			if tool.Name == "greet_hello" {
				return true
			}
		}
		return false
	}
	if listed() {
		t.Fatal("greet_hello listed before mods.lock pins it")
	}
	writeLock := func(data []byte) {
		t.Helper()
		tmp := filepath.Join(work, ".mods.lock.tmp")
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(work, "mods.lock")); err != nil {
			t.Fatal(err)
		}
	}
	writeLock(lock)
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no notifications/tools/list_changed after mods.lock pinned a mod")
	}
	if !listed() {
		t.Fatal("greet_hello not listed once mods.lock pins it")
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet_hello", Arguments: map[string]any{"name": "Ada"}})
	if err != nil || res.IsError || len(res.Content) == 0 {
		t.Fatalf("greet_hello: got %+v, %v", res, err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "GREETING, Ada!" {
		t.Errorf("greet_hello: got %q, want GREETING, Ada!", got)
	}
	writeLock(nil)
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no notifications/tools/list_changed after mods.lock unpinned the mod")
	}
	if listed() {
		t.Error("greet_hello still listed once mods.lock pins nothing")
	}
}

// writerFunc is a function as an io.Writer.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestMCPServesStaleAtStart starts modhost mcp on a mod edited without go
// generate: it is generated and served at once, as modhost dev does.
func TestMCPServesStaleAtStart(t *testing.T) {
	t.Parallel()
	dir := testenv.ModuleDir(t)
	src := filepath.Join(dir, "livey.go")
	if err := os.WriteFile(src, []byte(liveySource("v1")), 0o644); err != nil {
		t.Fatal(err)
	}
	if ps := modreload.Generate(dir); len(ps) > 0 {
		t.Fatalf("generate v1: %v", ps)
	}
	if err := os.WriteFile(src, []byte(liveySource("v2")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := modhostCommand(t, "mcp")
	cmd.Env = append(cmd.Env, "MODHOST_MODS="+dir)
	reloaded := make(chan struct{})
	logStderr(t, cmd, func(all string) {
		if strings.Contains(all, "modhost: reloaded "+dir) {
			select {
			case <-reloaded:
			default:
				close(reloaded)
			}
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	select {
	case <-reloaded:
	case <-ctx.Done():
		t.Fatal("modhost never said it reloaded the stale mod")
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "livey_echo", Arguments: map[string]any{"text": "a"}})
	if err != nil || res.IsError || len(res.Content) == 0 {
		t.Fatalf("livey_echo: got %+v, %v", res, err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "v2 a" {
		t.Errorf("livey_echo: got %q, want v2 a, from the source as edited", got)
	}
}

// logStderr keeps cmd's stderr, logs it when the test fails, and calls
// seen (unless nil) with all of it after each write.
func logStderr(t *testing.T, cmd *exec.Cmd, seen func(all string)) {
	var stderr strings.Builder
	var mu sync.Mutex
	cmd.Stderr = writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		stderr.Write(p)
		if seen != nil {
			seen(stderr.String())
		}
		return len(p), nil
	})
	t.Cleanup(func() {
		if t.Failed() {
			mu.Lock()
			t.Logf("modhost's stderr:\n%s", stderr.String())
			mu.Unlock()
		}
	})
}

package mcpbridge

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/manifest"
)

// echoBackend serves one tool, "echo", whose call answers its input as its
// result at once: what is left of a call is the bridge's and the SDK's.
func echoBackend() *fakeBackend {
	return &fakeBackend{
		tools: []host.Tool{{Mod: "m", Tool: manifestTool("echo", `{"type":"object"}`)}},
		call: func(_ context.Context, req *host.CallRequest) *host.CallResult {
			return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: "echoed", Result: req.Input}
		},
	}
}

// benchEchoBackend serves the tools of the bench's echo mod: "echo", whose
// call answers its input as text at once (what is left of a call is the
// bridge's and the SDK's), and "echo_task", which may run as a task.
func benchEchoBackend() *fakeBackend {
	tool := func(name string, task manifest.TaskSupport) host.Tool {
		return host.Tool{Mod: "m", Tool: manifest.Tool{Name: name, Description: "Test tool. Call it in tests.", Kind: manifest.KindPlain,
			InputSchema: json.RawMessage(`{"type":"object"}`), Task: task}}
	}
	return &fakeBackend{
		tools: []host.Tool{tool("echo", ""), tool("echo_task", manifest.TaskOptional)},
		call: func(_ context.Context, req *host.CallRequest) *host.CallResult {
			return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: string(req.Input)}
		},
	}
}

// BenchmarkStdioServe measures one tools/call over ServeStdio, the client a
// line written and a line read, with a backend that answers at once, as
// the bench's echo mod answers: the server's side of a stdio call without
// the mod. It runs in a session
// (2025-11-25) and sessionless (2026-07-28, go-sdk's client's default), on
// the direct path and through the SDK alone.
func BenchmarkStdioServe(b *testing.B) {
	for _, sessionless := range []bool{false, true} {
		for _, sdkOnly := range []bool{false, true} {
			name := map[bool]string{false: "session", true: "sessionless"}[sessionless] + map[bool]string{false: "/direct", true: "/sdk"}[sdkOnly]
			b.Run(name, func(b *testing.B) { benchStdioServe(b, sessionless, sdkOnly) })
		}
	}
}

// benchArguments are the arguments of the bench's echo call (bench/internal/echo).
const benchArguments = `{"message":"The quick brown fox jumps over the lazy dog, then naps in the sun.","tags":["alpha","beta","gamma","delta"],"count":42,"loud":false,"author":{"name":"Ada Lovelace","email":"ada@example.com"}}`

func benchStdioServe(b *testing.B, sessionless, sdkOnly bool) {
	srv, err := NewServer(benchEchoBackend(), nil)
	if err != nil {
		b.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(ctx, inR, outW, &StdioOptions{sdkOnly: sdkOnly}); outW.Close() }()
	defer func() { inW.Close(); cancel(); <-done }()
	out := bufio.NewReader(outR)
	roundTrip := func(line string) []byte {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			b.Fatal(err)
		}
		resp, err := out.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		return resp
	}
	meta := ""
	if sessionless {
		roundTrip(discoverLine)
		meta = "," + sessionless2026
	} else {
		roundTrip(initializeLine)
		io.WriteString(inW, initializedLine+"\n")
	}
	for i := 0; b.Loop(); i++ {
		resp := roundTrip(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+2) + `,"method":"tools/call","params":{"name":"echo","arguments":` + benchArguments + meta + `}}`)
		if i == 0 {
			var m struct {
				Result struct{ IsError bool } `json:"result"`
			}
			if json.Unmarshal(resp, &m) != nil || m.Result.IsError {
				b.Fatalf("got %s", resp)
			}
		}
	}
}

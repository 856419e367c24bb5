package mcpbridge

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
)

// nonblocking reports whether the open file of descriptor fd is in
// non-blocking mode.
func nonblocking(t *testing.T, fd int) bool {
	t.Helper()
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	return flags&syscall.O_NONBLOCK != 0
}

// probe returns a duplicate of f's descriptor, which shares its open file
// and outlives f.
func probe(t *testing.T, f *os.File) int {
	t.Helper()
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	return fd
}

// socketPair returns the two ends of a connected Unix socket.
func socketPair(t *testing.T) (*os.File, *os.File) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	return os.NewFile(uintptr(fds[0]), "socket"), os.NewFile(uintptr(fds[1]), "socket")
}

// TestServeStdioRaw serves a session on pipes, on sockets (as Node.js
// gives a child's stdio) and on one socket both ways: while it serves,
// the server's ends are non-blocking; an answer larger than the pipe or
// socket holds, read late, arrives whole; a call's cancellation is
// applied; when the input ends the session ends and the server's ends are
// blocking again, as they were.
func TestServeStdioRaw(t *testing.T) {
	for _, kind := range []string{"pipes", "sockets", "one socket"} {
		t.Run(kind, func(t *testing.T) {
			var srvIn, srvOut, cliIn, cliOut *os.File // the client writes cliIn and reads cliOut
			switch kind {
			case "pipes":
				var err error
				if srvIn, cliIn, err = os.Pipe(); err != nil {
					t.Fatal(err)
				}
				if cliOut, srvOut, err = os.Pipe(); err != nil {
					t.Fatal(err)
				}
			case "sockets":
				srvIn, cliIn = socketPair(t)
				srvOut, cliOut = socketPair(t)
			default:
				srvIn, cliIn = socketPair(t)
				srvOut, cliOut = srvIn, cliIn
			}
			defer func() {
				for _, f := range []*os.File{srvIn, srvOut, cliIn, cliOut} {
					f.Close()
				}
			}()
			inFD, outFD := probe(t, srvIn), probe(t, srvOut)
			srv, err := NewServer(&directBackend{fakeBackend{tools: stdioTools()}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- srv.ServeStdio(t.Context(), srvIn, srvOut, nil) }()
			out := bufio.NewReader(cliOut)
			next := func() string {
				t.Helper()
				line, err := out.ReadString('\n')
				if err != nil {
					t.Fatalf("read: %v", err)
				}
				return line
			}
			send := func(line string) {
				t.Helper()
				if _, err := io.WriteString(cliIn, line+"\n"); err != nil {
					t.Fatal(err)
				}
			}
			send(initializeLine)
			next()
			send(initializedLine)
			if !nonblocking(t, inFD) || !nonblocking(t, outFD) {
				t.Errorf("serving: the server's ends are not non-blocking")
			}
			big := strings.Repeat("x", 1<<20)
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"text","arguments":{"s":"` + big + `"}}}`)
			time.Sleep(50 * time.Millisecond) // the answer fills the pipe or socket first
			var res struct {
				ID     int `json:"id"`
				Result struct {
					Content []struct{ Text string } `json:"content"`
				} `json:"result"`
			}
			if line := next(); json.Unmarshal([]byte(line), &res) != nil || res.ID != 2 || len(res.Result.Content) != 1 ||
				!strings.Contains(res.Result.Content[0].Text, big) {
				t.Fatalf("got %.200s…, want the text tool's answer of 1 MiB", line)
			}
			send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"n":1}}}`)
			if line := next(); !strings.Contains(line, `"id":3`) || !strings.Contains(line, `"n":1`) {
				t.Errorf("got %s, want the echo of id 3", line)
			}
			if kind == "one socket" {
				syscall.Shutdown(int(cliIn.Fd()), syscall.SHUT_WR)
			} else {
				cliIn.Close()
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("ServeStdio: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("ServeStdio did not end with its input")
			}
			if nonblocking(t, inFD) || nonblocking(t, outFD) {
				t.Errorf("ended: the server's ends are still non-blocking")
			}
		})
	}
}

// stdioTools are two of directBackend's tools.
func stdioTools() []host.Tool {
	return []host.Tool{
		{Mod: "m", Tool: manifestTool("echo", `{"type":"object"}`)},
		{Mod: "m", Tool: manifestTool("text", `{"type":"object"}`)},
	}
}

// TestRawStdioLeavesStderr: an output that is standard error too, and an
// input that is the same socket, stay as they are, blocking.
func TestRawStdioLeavesStderr(t *testing.T) {
	srv, cli := socketPair(t)
	defer srv.Close()
	defer cli.Close()
	was := os.Stderr
	os.Stderr = srv
	defer func() { os.Stderr = was }()
	r, w, release := rawStdio(srv, srv)
	defer release()
	if r != io.Reader(srv) || w != io.Writer(srv) || nonblocking(t, int(srv.Fd())) {
		t.Errorf("got %T, %T, want the socket as it is, blocking", r, w)
	}
}

//go:build linux || darwin

package peercred

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pair returns both ends of a unix socket connection made in this process.
func pair(t *testing.T) (client, server net.Conn) {
	t.Helper()
	l, err := net.Listen("unix", filepath.Join(t.TempDir(), "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := l.Accept()
		accepted <- c
	}()
	client, err = net.Dial("unix", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

func TestOfReportsThisProcess(t *testing.T) {
	client, server := pair(t)
	for name, c := range map[string]net.Conn{"client": client, "server": server} {
		p, err := Of(c)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := (Peer{PID: os.Getpid(), UID: os.Getuid()}); p != want {
			t.Errorf("%s: got peer %+v, want %+v", name, p, want)
		}
	}
}

func TestHandshakes(t *testing.T) {
	other := os.Getppid() // a live process that is not this one
	tests := []struct {
		name   string
		pid    int
		server bool
		ok     bool
	}{
		{"server accepts the wanted process", os.Getpid(), true, true},
		{"client accepts the wanted process", os.Getpid(), false, true},
		{"server refuses another process", other, true, false},
		{"client refuses another process", other, false, false},
		{"no pid is refused", 0, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, server := pair(t)
			creds := New(func() int { return tt.pid })
			var (
				conn net.Conn
				info any
				err  error
			)
			if tt.server {
				conn, info, err = creds.ServerHandshake(server)
			} else {
				conn, info, err = creds.ClientHandshake(context.Background(), "unused", client)
			}
			if !tt.ok {
				if err == nil || !strings.Contains(err.Error(), "want process") {
					t.Fatalf("got error %v, want a refusal naming the wanted process", err)
				}
				// A refused connection is closed.
				if _, werr := server.Write([]byte("x")); tt.server && werr == nil {
					t.Error("the refused connection is still open")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if conn == nil {
				t.Fatal("got no connection")
			}
			if got := info.(Info).Peer.PID; got != os.Getpid() {
				t.Errorf("got peer pid %d, want %d", got, os.Getpid())
			}
		})
	}
}

func TestOfRefusesOtherConns(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if _, err := Of(a); err == nil {
		t.Fatal("got no error for a net.Pipe, want one")
	}
}

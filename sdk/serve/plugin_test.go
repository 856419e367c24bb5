//go:build linux || darwin

package serve

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/sdk"
)

// TestStdioData checks the bytes of go-plugin's StdioData message
// {Channel channel = 1; bytes data = 2}, which its client decodes.
func TestStdioData(t *testing.T) {
	t.Parallel()
	b, err := proto.Marshal(stdioData(stdioErr, []byte("line\n")))
	if err != nil {
		t.Fatal(err)
	}
	var channel uint64
	var data []byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.VarintType:
			channel, n = protowire.ConsumeVarint(b)
		case num == 2 && typ == protowire.BytesType:
			data, n = protowire.ConsumeBytes(b)
		default:
			t.Fatalf("unexpected field %d of type %d", num, typ)
		}
		if n < 0 {
			t.Fatalf("bad field %d: %v", num, protowire.ParseError(n))
		}
		b = b[n:]
	}
	if channel != 2 || !bytes.Equal(data, []byte("line\n")) {
		t.Errorf("got channel %d, data %q; want 2 (stderr), %q", channel, data, "line\n")
	}
}

// TestServeByHand checks that a mod binary run without a host's cookie
// refuses to serve.
func TestServeByHand(t *testing.T) {
	t.Setenv(protocol.MagicCookieKey, "")
	err := Serve(&sdk.Generated{Manifest: []byte(`{}`)}, nil)
	if err == nil || !strings.Contains(err.Error(), "not meant to be run by hand") {
		t.Errorf("got %v, want the by-hand error", err)
	}
}

// TestListen checks the mod's socket: a new name in the directory, which
// accepts a connection, a name taken left alone, and the file removed when
// the listener closes.
func TestListen(t *testing.T) {
	t.Parallel()
	dir, err := os.MkdirTemp("", "serve-listen-") // short: a socket's path is at most 104 bytes on macOS
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	taken, err := listenUnix(filepath.Join(dir, "plugin1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := listenUnix(filepath.Join(dir, "plugin1")); !errors.Is(err, syscall.EADDRINUSE) {
		t.Errorf("second listener on one name: got %v, want EADDRINUSE", err)
	}
	l, err := listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := l.Addr().String()
	if filepath.Dir(path) != dir || !strings.HasPrefix(filepath.Base(path), "plugin") || path == taken.Addr().String() {
		t.Errorf("got socket %s, want a new plugin* name in %s", path, dir)
	}
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Write([]byte("ok"))
			c.Close()
		}
	}()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(c)
	c.Close()
	if string(got) != "ok" {
		t.Errorf("got %q from the socket, want %q", got, "ok")
	}
	l.Close()
	taken.Close()
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("after Close: got %d files in the directory, want none", len(names))
	}
}

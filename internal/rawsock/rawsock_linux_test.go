package rawsock

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"os"
	"strings"
	"testing"
	"time"
)

// pair returns the two ends of a loopback TCP connection, the server's
// accepted through Listener.
func pair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err = Listener(ln).Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close(); client.Close() })
	if _, ok := server.(*conn); !ok {
		t.Fatalf("got %T, want a raw connection", server)
	}
	return server, client
}

func TestReadWrite(t *testing.T) {
	server, client := pair(t)
	// More than the socket's buffers take: the write waits for the reader.
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<18)
	done := make(chan error, 1)
	go func() {
		n, err := server.Write(big)
		if err == nil && n != len(big) {
			err = io.ErrShortWrite
		}
		done <- err
	}()
	got := make([]byte, len(big))
	if _, err := io.ReadFull(client, got); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Write: %v", err)
	}
	if !bytes.Equal(got, big) {
		t.Fatal("got other bytes than were written")
	}
	if _, err := client.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, err := server.Read(buf); err != nil || string(buf[:n]) != "ping" {
		t.Fatalf("Read: got %q, %v; want ping", buf[:n], err)
	}
	if n, err := server.Read(nil); n != 0 || err != nil {
		t.Fatalf("Read(nil): got %d, %v; want 0, nil", n, err)
	}
	client.Close()
	if n, err := server.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("Read after the peer closed: got %d, %v; want 0, EOF", n, err)
	}
}

// TestCloseWrite: the connection's writes end as a TCP connection's do;
// its reads go on.
func TestCloseWrite(t *testing.T) {
	server, client := pair(t)
	cw, ok := server.(interface{ CloseWrite() error })
	if !ok {
		t.Fatalf("got %T, want a CloseWrite method", server)
	}
	if err := cw.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	if n, err := client.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Fatalf("client's read after CloseWrite: got %d, %v; want 0, EOF", n, err)
	}
	client.Write([]byte("pong"))
	buf := make([]byte, 8)
	if n, err := server.Read(buf); err != nil || string(buf[:n]) != "pong" {
		t.Fatalf("Read after CloseWrite: got %q, %v; want pong", buf[:n], err)
	}
}

// TestErrors: a deadline that passed and a closed connection give the
// errors package net gives, as net/http tells them apart.
func TestErrors(t *testing.T) {
	server, _ := pair(t)
	server.SetReadDeadline(time.Now().Add(-time.Second))
	_, err := server.Read(make([]byte, 8))
	var oe *net.OpError
	if !errors.As(err, &oe) || oe.Op != "read" || !oe.Timeout() || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Read past its deadline: got %v, want a read timeout", err)
	}
	server.Close()
	_, err = server.Read(make([]byte, 8))
	if !errors.As(err, &oe) || oe.Op != "read" || !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Read once closed: got %v, want a read of a closed connection", err)
	}
	_, err = server.Write([]byte("x"))
	if !errors.As(err, &oe) || oe.Op != "write" || !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Write once closed: got %v, want a write of a closed connection", err)
	}
}

// TestHTTP: net/http serves over the connections as over package net's:
// two POSTs on one kept-alive connection (the background read between
// them ends by a deadline), and a client's disconnect cancels its request.
func TestHTTP(t *testing.T) {
	gone := make(chan struct{})
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		if string(body) == "wait" {
			select {
			case <-req.Context().Done():
				close(gone)
			case <-time.After(time.Minute):
			}
			return
		}
		w.Write(bytes.ToUpper(body))
	}))
	ts.Listener = Listener(ts.Listener)
	ts.Start()
	defer ts.Close()
	reused := false
	for i, want := range []string{"ONE", "TWO"} {
		ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
			GotConn: func(info httptrace.GotConnInfo) { reused = info.Reused },
		})
		req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL, strings.NewReader(strings.ToLower(want)))
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if string(got) != want {
			t.Fatalf("got %q, want %q", got, want)
		}
		if i == 1 && !reused {
			t.Error("the second request did not reuse the connection")
		}
	}
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nwait")
	time.Sleep(50 * time.Millisecond)
	c.Close()
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("the client left; its request's context was not cancelled")
	}
}

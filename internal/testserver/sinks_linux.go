package testserver

import (
	"fmt"
	"net"
	"os"
	"sync/atomic"
	"testing"
)

// sinks counts the abstract sockets Sinks made, for unique names.
var sinks atomic.Int64

// Sinks listens on a loopback TCP port and on an abstract unix socket,
// accepting and closing every connection until the test ends: what
// confinement tests try to reach. It returns the TCP address and the
// socket's name, without its "@".
func Sinks(t testing.TB) (tcpAddr, abstract string) {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	abstract = fmt.Sprintf("modkit-test-%d-%d", os.Getpid(), sinks.Add(1))
	aln, err := net.Listen("unix", "@"+abstract)
	if err != nil {
		ln.Close()
		t.Fatal(err)
	}
	for _, l := range []net.Listener{ln, aln} {
		t.Cleanup(func() { l.Close() })
		go AcceptAll(l)
	}
	return ln.Addr().String(), abstract
}

// AcceptAll accepts and closes connections until l is closed.
func AcceptAll(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		c.Close()
	}
}

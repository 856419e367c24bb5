// Package attempt holds what the hostile and permitted test mods try, each
// operation a function of its target returning "done" or the error.
package attempt

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modkit/modkit/internal/sandbox/probe"
)

// Read reads the file at path with os.ReadFile, not through the workspace
// root.
func Read(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return "read " + strconv.Itoa(len(data)) + " bytes", nil
}

// Write writes a file at path.
func Write(path string) (string, error) {
	if err := os.WriteFile(path, []byte("written by a mod\n"), 0o600); err != nil {
		return "", err
	}
	return "done", nil
}

// Link makes a symbolic link to target in the mod's temporary directory
// and reads the target through it.
func Link(target string) (string, error) {
	link := filepath.Join(os.TempDir(), "link")
	os.Remove(link)
	if err := os.Symlink(target, link); err != nil {
		return "", err
	}
	return Read(link)
}

// Connect opens a TCP connection to addr.
func Connect(addr string) (string, error) {
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return "", err
	}
	c.Close()
	return "done", nil
}

// Run runs the program at path.
func Run(path string) (string, error) {
	if err := exec.Command(path).Run(); err != nil {
		return "", err
	}
	return "done", nil
}

// Signal sends signal 0 to the process pid (its parent when pid is "parent").
func Signal(pid string) (string, error) {
	n := os.Getppid()
	if pid != "parent" {
		var err error
		if n, err = strconv.Atoi(pid); err != nil {
			return "", err
		}
	}
	if err := syscall.Kill(n, 0); err != nil {
		return "", os.NewSyscallError("kill", err)
	}
	return "done", nil
}

// Abstract connects to the abstract unix socket named name.
func Abstract(name string) (string, error) {
	c, err := net.Dial("unix", "@"+name)
	if err != nil {
		return "", err
	}
	c.Close()
	return "done", nil
}

// Socket tries the network as target says, "kind address": mptcp-dial
// ADDR (a Multipath TCP connection, which sends a line), listen (a
// listener on every address, Multipath TCP by default since Go 1.24), udp
// ADDR (a datagram), unix PATH, unixgram PATH.
func Socket(target string) (string, error) {
	kind, addr, _ := strings.Cut(target, " ")
	var c io.Closer
	var err error
	switch kind {
	case "mptcp-dial":
		d := net.Dialer{Timeout: 10 * time.Second}
		d.SetMultipathTCP(true)
		var conn net.Conn
		if conn, err = d.Dial("tcp", addr); err == nil {
			_, err = conn.Write([]byte("from a mod\n"))
			c = conn
		}
	case "listen":
		c, err = net.Listen("tcp", "0.0.0.0:0")
	case "udp":
		var conn net.Conn
		if conn, err = net.Dial("udp", addr); err == nil {
			_, err = conn.Write([]byte("from a mod\n"))
			c = conn
		}
	case "unix", "unixgram":
		c, err = net.Dial(kind, addr)
	default:
		return "", fmt.Errorf("no such socket attempt %q", kind)
	}
	if err != nil {
		if c != nil {
			c.Close()
		}
		return "", err
	}
	c.Close()
	return "done", nil
}

// Syscall makes the system call of package probe named name.
func Syscall(name string) (string, error) {
	a, ok := probe.Find(append(append(probe.Refused(), probe.Allowed()...), probe.Sockets()...), name)
	if !ok {
		return "", fmt.Errorf("no such probe %q", name)
	}
	if err := a.Try(); err != nil {
		return "", err
	}
	return "done", nil
}

// Self says the mod process's id and capability sets: "pid N CapEff=0x0 …".
func Self(string) (string, error) {
	sets := probe.Capabilities()
	text := "pid " + strconv.Itoa(os.Getpid())
	for _, name := range []string{"CapEff", "CapPrm", "CapInh", "CapBnd", "CapAmb"} {
		text += fmt.Sprintf(" %s=%#x", name, sets[name])
	}
	return text, nil
}

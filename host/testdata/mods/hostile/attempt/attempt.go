// Package attempt holds what the hostile and permitted test mods try, each
// operation a function of its target returning "done" or the error.
package attempt

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
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

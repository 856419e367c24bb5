// Command attempt tries one operation a confined process may be refused,
// for the sandbox package's tests: attempt OP TARGET exits 0 when the
// operation succeeded, 3 when it was refused with a permission error, and
// 1 when it failed otherwise, printing the error.
package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: attempt OP TARGET")
		os.Exit(2)
	}
	err := try(os.Args[1], os.Args[2])
	switch {
	case err == nil:
		os.Exit(0)
	case errors.Is(err, fs.ErrPermission):
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func try(op, target string) error {
	switch op {
	case "read":
		_, err := os.ReadFile(target)
		return err
	case "write":
		return os.WriteFile(target, []byte("written\n"), 0o666)
	case "truncate":
		return os.Truncate(target, 0)
	case "exec":
		return exec.Command(target).Run()
	case "connect":
		c, err := net.Dial("tcp", target)
		if err == nil {
			c.Close()
		}
		return err
	case "bind":
		// Plain TCP: Go's listeners would use MPTCP, which Landlock does
		// not filter.
		var lc net.ListenConfig
		lc.SetMultipathTCP(false)
		ln, err := lc.Listen(context.Background(), "tcp", target)
		if err == nil {
			ln.Close()
		}
		return err
	case "signal":
		if err := syscall.Kill(os.Getppid(), 0); err != nil {
			return os.NewSyscallError("kill", err)
		}
		return nil
	case "abstract":
		c, err := net.Dial("unix", "@"+target)
		if err == nil {
			c.Close()
		}
		return err
	}
	return fmt.Errorf("unknown operation %q", op)
}

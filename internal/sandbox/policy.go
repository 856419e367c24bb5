package sandbox

import (
	"path/filepath"
	"sync/atomic"
)

// Policy is what one mod process may do. Paths need not exist: a missing
// one grants nothing.
type Policy struct {
	// Read are files and directories the process may read.
	Read []string
	// ReadExec are files and directories it may read and execute.
	ReadExec []string
	// Write are directories it may read, create files in, change and
	// remove.
	Write []string
	// Exec are programs it may run (and read).
	Exec []string
	// ExecAny lets it run any program it may read.
	ExecAny bool
	// ConnectPorts are the TCP ports it may connect to, on any host.
	ConnectPorts []uint16
	// ConnectAny lets it connect to any TCP port.
	ConnectAny bool
	// Connect are the "host:port" addresses it may connect to by TCP, a
	// host a name or an IP literal. With CheckHosts the host checks the
	// address of each connect(2) against them; without it, ConnectPorts
	// are what Landlock holds it to.
	Connect []string
	// CheckHosts has the host supervise the process's connect(2) calls
	// (a seccomp user notification for each, [Enforcement.HostCheck]),
	// when Seccomp is set, Connect lists addresses and ConnectAny is not
	// set.
	CheckHosts bool
	// Internet is which internet sockets it may open; the zero value
	// follows ConnectPorts and ConnectAny.
	Internet Internet
	// ABI is the Landlock ABI whose rights the ruleset handles
	// ([Enforcement.ABI]); 0 applies no Landlock ruleset, and the process
	// gets the other layers only.
	ABI int
	// Seccomp installs the seccomp filter ([Enforcement.Seccomp]).
	Seccomp bool
}

// Reportable reports whether a process confined by p can tell that it is
// ([Confined]): the seccomp filter refuses unshare(2); from ABI 6 it may
// not signal its parent; from ABI 1 it may not list the root directory,
// unless p lets it read "/".
func (p *Policy) Reportable() bool {
	if p.Seccomp || p.ABI >= 6 {
		return true
	}
	if p.ABI <= 0 {
		return false
	}
	for _, paths := range [][]string{p.Read, p.ReadExec, p.Write} {
		for _, path := range paths {
			if filepath.Clean(path) == "/" {
				return false
			}
		}
	}
	return true
}

// checksHosts reports whether the host checks the address of each
// connect(2) of p's process.
func (p *Policy) checksHosts() bool {
	return p.Seccomp && p.CheckHosts && !p.ConnectAny && len(p.Connect) > 0
}

// RequiredABI is the lowest Landlock ABI that, with the seccomp filter,
// enforces every part of a Policy: filesystem, TCP ports, and the scoping
// of abstract unix sockets and signals.
const RequiredABI = 6

// Check returns nil when this machine keeps every promise modkit keeps
// anywhere ([Enforcement.Full]), else an error naming what it does not
// and why.
func Check() error {
	e, err := Current()
	if err != nil {
		return err
	}
	return e.Gaps()
}

// kernelFacts are what the kernel says of itself.
type kernelFacts struct {
	release string // uname's release, "" off Linux
	abi     int    // Landlock ABI, 0 for none
	seccomp error  // why the seccomp filter cannot be installed, nil when it can
	hosts   error  // why the host cannot check the host of a connect, nil when it can
}

// disabled makes Current report no Landlock and no seccomp, for
// benchmarks that measure what confinement costs.
var disabled atomic.Bool

// Disable makes Current report no Landlock and no seccomp (true), or
// judge the kernel again (false), as on a machine that cannot confine:
// for benchmarks comparing a confined host with an unconfined one. Not
// for production code.
func Disable(off bool) { disabled.Store(off) }

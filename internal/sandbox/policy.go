package sandbox

import (
	"errors"
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
	// Internet is which internet sockets it may open; the zero value
	// follows ConnectPorts and ConnectAny.
	Internet Internet
}

// RequiredABI is the lowest Landlock ABI that enforces every part of a
// Policy: filesystem, TCP ports, and the scoping of abstract unix sockets
// and signals.
const RequiredABI = 6

// abiFeatures names what each Landlock ABI added, for messages about a
// kernel that lacks some.
var abiFeatures = map[int]string{
	1: "filesystem access",
	2: "renaming and linking across directories",
	3: "file truncation",
	4: "TCP bind and connect",
	5: "device ioctl",
	6: "scoping of abstract unix sockets and signals",
}

// disabled makes Check fail, for benchmarks that measure what confinement
// costs.
var disabled atomic.Bool

// Disable makes Check fail (true) or judge the kernel again (false), as
// on a machine that cannot confine: for benchmarks comparing a confined
// host with an unconfined one. Not for production code.
func Disable(off bool) { disabled.Store(off) }

// errDisabled is Check's error while Disable is on.
var errDisabled = errors.New("confinement is disabled (sandbox.Disable)")

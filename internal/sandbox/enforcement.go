package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// MaxABIEnv names the variable that caps the Landlock ABI the host uses:
// MODKIT_LANDLOCK_MAX_ABI=N confines as a kernel offering ABI N would, and
// 0 as a kernel without Landlock. Tests run every level on one kernel with
// it.
const MaxABIEnv = "MODKIT_LANDLOCK_MAX_ABI"

// LatestABI is the newest Landlock ABI this package knows. ABI 7 adds
// audit logging of denials only: no right, so no promise; the ruleset is
// the same as at ABI 6, and modkit sets no logging flag.
const LatestABI = 7

// abiLinux is the first Linux release offering each Landlock ABI.
var abiLinux = map[int]string{1: "5.13", 2: "5.19", 3: "6.2", 4: "6.7", 5: "6.10", 6: "6.12", 7: "6.15"}

// Promise is one limit the host puts on every mod process.
type Promise struct {
	// Name says what is limited, as people read it: "read files".
	Name string
	// ABI is the Landlock ABI that enforces the promise; 0 for a promise
	// Landlock cannot keep at any ABI, which another layer must.
	ABI int
}

// Promises are what the host promises about a mod process, in the order
// the report lists them. The seccomp filter keeps the last three, and
// part of those Landlock keeps from a later ABI (see [Enforcement.Rows]);
// the confining thread drops every capability at every ABI.
var Promises = []Promise{
	{"read files", 1},
	{"write, create and remove files", 1},
	{"truncate files", 3},
	{"run programs", 1},
	{TCPConnect, 4},
	{TCPConnectHost, 0},
	{TCPBind, 4},
	{AbstractUnixSockets, 6},
	{Signals, 6},
	{NetworkBeyondTCP, 0},
	{PathnameUnixSockets, 0},
	{Capabilities, 0},
}

// The promises whose row names a layer beside Landlock.
const (
	TCPConnect          = "TCP connect (by port)"
	TCPConnectHost      = "TCP connect (by host)"
	TCPBind             = "TCP bind"
	AbstractUnixSockets = "abstract unix sockets"
	Signals             = "signals"
	NetworkBeyondTCP    = "network beyond TCP (UDP, MPTCP, raw, packet, netlink)"
	PathnameUnixSockets = "pathname unix sockets"
	Capabilities        = "capabilities (a host run as root)"
)

// beyondLandlock says what the seccomp filter and the dropped capabilities
// do of promise below the Landlock ABI that keeps it, or in its stead:
// whether that keeps it, and how. "" when they do nothing of it.
func (e *Enforcement) beyondLandlock(promise string) (enforced bool, how string) {
	if !e.Confines() {
		return false, ""
	}
	if promise == Capabilities {
		return true, "enforced: every capability dropped"
	}
	if e.Seccomp != nil {
		return false, ""
	}
	switch promise {
	case TCPConnectHost:
		if e.HostCheck != nil {
			return false, "Landlock filters TCP connect by port only: a mod that declares host:port reaches that port of any host"
		}
		return true, "enforced by seccomp user notification: the host checks the address of each connect and makes it itself"
	case NetworkBeyondTCP:
		return true, "enforced by seccomp: no MPTCP, raw, packet or netlink socket but route; UDP to any host only for a mod that declares network (DNS needs it)"
	case PathnameUnixSockets:
		if e.HostCheck == nil {
			return true, "enforced by seccomp for a mod that declares no network (connect refused), and by the host for one that declares host:port addresses; a mod that may connect anywhere (*) may connect to any socket its user may open"
		}
		return true, "enforced by seccomp for a mod that declares no network (connect refused); a mod that declares network may connect to any socket its user may open"
	case TCPConnect, TCPBind:
		return false, "seccomp refuses every internet socket to a mod that declares no network, but does not filter the ports of one that does"
	case AbstractUnixSockets:
		return false, "seccomp refuses connect to a mod that declares no network, but not to one that does"
	case Signals:
		return false, "seccomp refuses kill(2) of a process group or every process (pid 0 or below) only, not of a process by pid"
	}
	return false, ""
}

// Row is one promise and whether this machine keeps it.
type Row struct {
	Promise
	// Enforced reports that the host enforces the promise here.
	Enforced bool
	// Status says by what ("enforced by Landlock ABI 6") or why not
	// ("not enforced: Linux 6.1.0 offers Landlock ABI 2").
	Status string
}

// Enforcement is what this machine enforces of the host's promises, a row
// per promise. [Current] computes it.
type Enforcement struct {
	// OS is runtime.GOOS.
	OS string
	// Kernel is the kernel's release on Linux, "" elsewhere.
	Kernel string
	// KernelABI is the Landlock ABI the kernel offers, 0 for none.
	KernelABI int
	// ABI is the Landlock ABI mods are confined with: the kernel's, at
	// most LatestABI, capped by MODKIT_LANDLOCK_MAX_ABI; 0 for none.
	ABI int
	// Capped reports that MODKIT_LANDLOCK_MAX_ABI lowered ABI.
	Capped bool
	// Seccomp is why mods get no seccomp filter here (the kernel refuses
	// it, or the OS has none), nil when they get it.
	Seccomp error
	// HostCheck is why the host does not check the host of a mod's
	// connects here (the kernel lacks seccomp user notification or
	// pidfd_getfd, or Yama forbids taking a mod's socket), nil when it
	// does: Landlock then filters them by port only.
	HostCheck error
	// Disabled reports that [Disable] turned confinement off.
	Disabled bool
	// Rows are the promises in the order of [Promises].
	Rows []Row
}

// Current computes what this machine enforces: the kernel is asked once
// per process, MODKIT_LANDLOCK_MAX_ABI at each call (empty is unset). A
// bad value of the variable is an error naming it.
func Current() (*Enforcement, error) {
	k := kernel()
	e := &Enforcement{OS: runtime.GOOS, Kernel: k.release, KernelABI: k.abi, ABI: min(k.abi, LatestABI), Seccomp: k.seccomp, HostCheck: k.hosts, Disabled: disabled.Load()}
	if v := os.Getenv(MaxABIEnv); v != "" { // empty is unset
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s=%q: want a Landlock ABI, a whole number from 0 (no Landlock) to %d", MaxABIEnv, v, LatestABI)
		}
		if n < e.ABI {
			e.ABI, e.Capped = n, true
		}
	}
	if e.Disabled {
		e.ABI, e.Seccomp, e.HostCheck = 0, errDisabled, errDisabled
	}
	e.fillRows()
	return e, nil
}

// errDisabled is why nothing confines mods after Disable(true).
var errDisabled = errors.New("confinement is disabled (sandbox.Disable)")

// fillRows computes e.Rows from the layers e names.
func (e *Enforcement) fillRows() {
	e.Rows = nil
	for _, p := range Promises {
		r := Row{Promise: p}
		enforced, how := e.beyondLandlock(p.Name)
		switch {
		case p.ABI > 0 && e.ABI >= p.ABI:
			r.Enforced, r.Status = true, fmt.Sprintf("enforced by Landlock ABI %d", e.ABI)
		case enforced:
			r.Enforced, r.Status = true, how
		case how != "":
			r.Status = "not enforced: " + e.why(p) + "; " + how
		default:
			r.Status = "not enforced: " + e.why(p)
		}
		e.Rows = append(e.Rows, r)
	}
}

// why says why p is not enforced here.
func (e *Enforcement) why(p Promise) string {
	switch {
	case e.Disabled:
		return errDisabled.Error()
	case p.ABI == 0 && p.Name == Capabilities:
		return "nothing confines mods here (" + e.Summary() + ")"
	case p.Name == TCPConnectHost && e.Seccomp == nil:
		return e.HostCheck.Error()
	case p.ABI == 0:
		return e.Seccomp.Error()
	case e.OS != "linux":
		return "no Landlock on this OS"
	}
	needs := fmt.Sprintf("it needs ABI %d, Linux %s", p.ABI, abiLinux[p.ABI])
	switch {
	case e.Capped:
		return fmt.Sprintf("%s caps Landlock at ABI %d (%s)", MaxABIEnv, e.ABI, needs)
	case e.KernelABI == 0:
		return fmt.Sprintf("Linux %s offers no Landlock (%s)", e.Kernel, needs)
	}
	return fmt.Sprintf("Linux %s offers Landlock ABI %d (%s)", e.Kernel, e.KernelABI, needs)
}

// Confines reports whether the host confines mod processes at all here:
// with Landlock at some ABI, or the seccomp filter alone. Either way the
// confining thread drops every capability.
func (e *Enforcement) Confines() bool { return !e.Disabled && (e.ABI > 0 || e.Seccomp == nil) }

// Missing are the promises this machine does not keep but a machine with
// a newer kernel, or one that allows the seccomp filter, would: the gaps
// of this machine, not of modkit.
func (e *Enforcement) Missing() []Row {
	var rows []Row
	for _, r := range e.Rows {
		if !r.Enforced {
			rows = append(rows, r)
		}
	}
	return rows
}

// Full reports whether this machine keeps every promise modkit keeps
// anywhere.
func (e *Enforcement) Full() bool { return len(e.Missing()) == 0 }

// Gaps is nil when the machine keeps every promise, else an error naming
// those it does not and why: the Landlock and seccomp this kernel (or OS)
// offers.
func (e *Enforcement) Gaps() error {
	missing := e.Missing()
	if len(missing) == 0 {
		return nil
	}
	var names []string
	for _, r := range missing {
		names = append(names, r.Name)
	}
	return fmt.Errorf("this machine does not enforce the limits on %s: %s", strings.Join(names, ", "), e.Summary())
}

// Summary says in one phrase what confines mods here: "Linux 6.1.0 offers
// Landlock ABI 2 and seccomp", "no Landlock or seccomp on this OS
// (darwin)".
func (e *Enforcement) Summary() string {
	var s string
	switch {
	case e.OS != "linux":
		return "no Landlock or seccomp on this OS (" + e.OS + ")"
	case e.KernelABI == 0:
		s = "Linux " + e.Kernel + " offers no Landlock"
	default:
		s = fmt.Sprintf("Linux %s offers Landlock ABI %d", e.Kernel, e.KernelABI)
	}
	switch {
	case e.Disabled:
		return s + "; " + errDisabled.Error()
	case e.Seccomp == nil:
		s += " and seccomp"
	default:
		s += "; " + e.Seccomp.Error()
	}
	if e.Capped {
		s += fmt.Sprintf("; %s caps Landlock at ABI %d", MaxABIEnv, e.ABI)
	}
	return s
}

// Package sandbox confines a mod's process to what its manifest declares,
// with Landlock on Linux.
//
// # How a mod is confined
//
// The host starts each mod process from an OS thread of its own, locked to
// its goroutine, that first restricts itself with the mod's [Policy]
// (prctl(PR_SET_NO_NEW_PRIVS) and landlock_restrict_self, which apply to
// the calling thread only), then forks and executes the mod's binary. The
// child inherits the restriction across execve, so nothing of the mod runs
// unconfined: not the Go runtime's start, not the init functions of the
// packages the author imports, which run before main and which confining
// from the mod's own main could not reach. The thread stays parked until
// the process exits (Linux sends the parent-death signal when the thread
// that forked ends), then its goroutine returns without unlocking, so the
// runtime destroys the restricted thread; no other goroutine ever runs on
// it, and threads the runtime starts meanwhile come from its template
// thread, not from this one.
//
// The go-landlock library restricts every thread of the calling process,
// which would confine the host itself; this package makes the three
// Landlock system calls through golang.org/x/sys/unix instead.
//
// # What the kernel enforces
//
// Landlock is used best effort at every ABI from 1 to [LatestABI]: the
// ruleset handles every right the ABI in use knows, so what no rule grants
// is denied, and what the ABI does not know passes. Files (reading,
// writing, running) from ABI 1, truncation from ABI 3, TCP bind and
// connect by port from ABI 4, ioctl on devices from ABI 5 (no promise of
// its own: a mod opens no device but /dev/null and the random ones), the
// scoping of abstract unix sockets and signals from ABI 6; ABI 7 adds only
// audit logging, no promise, and modkit asks for none. Landlock filters
// TCP by port, not by host: a declared "db.internal:5432" lets the
// mod connect to port 5432 of any host; UDP, MPTCP, raw sockets and
// pathname unix sockets pass at every ABI, and capabilities stay.
//
// [Current] reports what this machine enforces, a [Row] per [Promise]:
// "enforced by Landlock ABI 6", or why not ("not enforced: Linux 6.1.0
// offers Landlock ABI 2 (it needs ABI 4, Linux 6.7)"; "no Landlock on
// this OS" on macOS and Windows). [MaxABIEnv], MODKIT_LANDLOCK_MAX_ABI=N,
// caps the ABI used, 0 as if the kernel had no Landlock, so tests run
// every level on one kernel. [Check] is nil when the machine keeps every
// promise.
//
// # Knowing the mod is confined
//
// [Confined] is what a mod process reports about itself: it probes whether
// it may list the root directory, which only a policy reading "/" grants,
// or, from ABI 6, signal its parent; a process inside a Landlock domain
// may not. [Policy.Reportable] says whether a process can tell.
//
// The layers beside Landlock (a seccomp filter, dropping capabilities)
// fill the report's rows Landlock cannot keep through beyondLandlock.
package sandbox

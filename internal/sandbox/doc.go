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
// [RequiredABI] is the lowest Landlock ABI that keeps every promise:
// filesystem access (ABI 1 to 3, 5), TCP bind and connect by port (ABI 4),
// and scoping of abstract unix sockets and signals (ABI 6). Landlock
// filters TCP by port, not by host: a declared "db.internal:5432" lets the
// mod connect to port 5432 of any host. UDP is not filtered at these ABIs.
// [Check] says why a kernel falls short.
//
// macOS and Windows have no Landlock: there [Check] always fails, and a
// host runs mods unconfined only when its operator allows it.
//
// # Knowing the mod is confined
//
// [Confined] is what a mod process reports about itself: it probes whether
// it may signal its parent, which a process inside a Landlock domain scoped
// for signals may not.
package sandbox

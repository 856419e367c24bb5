// Package modproc supervises a mod's process: it derives what the process
// may do and see from the mod's declared permissions ([Policy], [Env]),
// the host's and sdk/modtest's alike, starts it (from threads that live as
// long as the host, so that Linux's parent-death signal holds), watches
// its exit, keeps the tail of its stderr for crash messages, logs what it
// prints, names the call a line belongs to, and keeps its socket
// directory.
//
// [Runner] is go-plugin's runner for one mod process: its own Wait tells
// the host at once that and how the process ended. [Tail] keeps the panic
// line and the last lines of stderr; [LineLogger] logs the rest, tagged by
// [Calls]. [NewSocketDir] and [SweepSocketDirs] keep the private socket
// directories tidy when a host dies.
//
// What a process means to a host (when to start, restart or stop it, and
// how a failure reads) stays in package host.
package modproc

// Package sandbox confines a mod's process to what its manifest declares,
// with Landlock, a seccomp filter and an empty capability set on Linux.
//
// # How a mod is confined
//
// The host starts each mod process from an OS thread of its own, locked to
// its goroutine, that first restricts itself with the mod's [Policy], then
// forks and executes the mod's binary. It restricts itself in this order,
// each step applying to the calling thread only: prctl(PR_SET_NO_NEW_PRIVS);
// every capability dropped; landlock_restrict_self; the seccomp filter. The
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
// Landlock system calls through golang.org/x/sys/unix instead. For the
// same reason the seccomp filter is installed with seccomp(2) and no
// flag, never SECCOMP_FILTER_FLAG_TSYNC. The filter is classic BPF
// assembled with golang.org/x/net/bpf, already among the host's
// dependencies, with named jump targets (see program): libseccomp's Go
// binding needs cgo, and a pure-Go filter library would add a dependency
// for what is a page of code here, whose every instruction and its order
// on the thread this package must know anyway. Package probe makes each
// call the filter decides on, for the tests.
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
// TCP by port, not by host: a declared "db.internal:5432" would let the
// mod connect to port 5432 of any host; the host checks the host (see
// Connect by host). UDP, MPTCP, raw sockets and
// pathname unix sockets pass Landlock at every ABI, and capabilities
// stay: the seccomp filter and the empty capability set close those.
// [RequiredABI] is the lowest ABI that, with the filter, keeps every
// promise.
//
// The confining thread runs every layer the machine offers, at every ABI:
// no_new_privs and no capability always; Landlock when the kernel has it
// (Policy.ABI 0 skips it); the filter when the kernel accepts it
// (Policy.Seccomp, from [SeccompSupported]). Below a Landlock ABI the
// filter keeps part of what that ABI would:
//
//   - below ABI 4 (TCP by port): a mod that declares no network opens no
//     internet socket at all, so it connects and binds nowhere; a mod
//     that declares network connects to and binds any TCP port;
//   - below ABI 6 (scopes): a mod that declares no network connects to no
//     abstract unix socket; one that does may. The filter refuses kill(2)
//     of a process group or of every process (pid 0 or below); a mod may
//     still signal any process of its user by pid;
//   - with no Landlock at all (ABI 0): files are not confined; the
//     network, the calls no mod needs and the capabilities are, as above.
//
// A kernel that refuses the filter is reported as a missing Landlock is,
// with the reason, and mods run without it: the rows it keeps say not
// enforced.
//
// [Current] reports what this machine enforces, a [Row] per [Promise]:
// "enforced by Landlock ABI 6", or why not ("not enforced: Linux 6.1.0
// offers Landlock ABI 2 (it needs ABI 4, Linux 6.7)"; "no Landlock on
// this OS" on macOS and Windows). [MaxABIEnv], MODKIT_LANDLOCK_MAX_ABI=N,
// caps the ABI used, 0 as if the kernel had no Landlock, so tests run
// every level on one kernel. [Check] is nil when the machine keeps every
// promise.
//
// # What the seccomp filter refuses
//
// Landlock's network rules cover TCP sockets only. The filter closes the
// rest; a refused call returns an error, never kills the process, so the
// mod reads the host's "Permission denied" sentence and goes on. Sockets
// and connections read EACCES, as Landlock's refusals do; the other calls
// EPERM. The filter checks the architecture (AUDIT_ARCH_X86_64 or
// AUDIT_ARCH_AARCH64) and refuses the x32 ABI's calls on amd64, and reads
// only the low 32 bits of an int argument, as the kernel does.
//
//   - socket(2): unix stream sockets always (go-plugin's listener in the
//     mod); AF_INET and AF_INET6 by [Internet], derived from the declared
//     network: none without it, else TCP and UDP. Never IPPROTO_MPTCP (Go
//     falls back to TCP, which Landlock filters by port), raw, ICMP,
//     SCTP, packet, vsock or any other family. AF_NETLINK only with
//     network and only NETLINK_ROUTE: neither the Go runtime nor
//     go-plugin opens a netlink socket; package net reads interfaces with
//     a route socket (net.Interfaces, InterfaceAddrs, IPv6 zone names),
//     which a mod without network does not need.
//   - Unix sockets made outside the process: a mod without network is
//     refused connect(2) on every socket (its listener only accepts; its
//     call lane is a socketpair the host hands over), so no pathname
//     socket (Docker's, ssh-agent's, D-Bus's) and no abstract one is in
//     reach. No mod opens a unix datagram socket or datagram socketpair,
//     whose sendto could reach /dev/log by its address. A mod that
//     declares host:port addresses has each connect(2) checked by the host
//     (below), which refuses it on any socket but an internet one; a mod
//     that may connect anywhere keeps connect(2), whose address the filter
//     cannot read, and so reaches pathname stream sockets its user may
//     open.
//   - TCP Fast Open: sendto, sendmsg and sendmmsg with MSG_FASTOPEN, which
//     connect a TCP socket without connect(2), for every mod whose ports
//     or hosts are filtered.
//   - Calls no mod needs: ptrace, process_vm_readv and _writev,
//     pidfd_getfd, bpf, perf_event_open, userfaultfd, io_uring_setup,
//     _enter and _register, keyctl, add_key, request_key, mount, umount2,
//     pivot_root, move_mount, open_tree, open_tree_attr, fsopen, fsconfig,
//     fsmount, fspick, mount_setattr, unshare, setns, and clone with a
//     namespace flag. clone3 reads ENOSYS, so that Go and the C library
//     fall back to clone, whose flags the filter reads.
//
// Signals take both layers. The filter is built before the mod's pid
// exists and also runs on the host's confining thread, so it cannot name
// the mod's process: it refuses kill(2) with a pid of 0 or below (the mod
// shares the host's process group; -1 is every process of the user) and
// tkill(2), which names a thread of any process (Go uses tgkill). Landlock
// ABI 6 scopes the rest: kill, tgkill and pidfd_send_signal reach no
// process outside the mod's domain. Below ABI 6 a mod may signal its
// user's processes by pid.
//
// The filter costs a call of the mod nothing it makes often: the kernel
// (5.11 and later) caches the verdict of every system call the filter
// allows without reading its arguments, which are all but clone, kill,
// socket and socketpair, and for a mod that declares network sendto,
// sendmsg and sendmmsg (Go writes a TCP connection with write(2)).
// Those, and every call on an older kernel, run the filter: a binary
// search on the system call's number (see program.dispatch) decides any
// call in at most 15 instructions, where a comparison with each number
// the filter looks at took up to 43; the kernel also runs it for every
// number once as it installs it, to fill that cache.
// [SeccompSupported] says whether the kernel can install it.
//
// # Connect by host
//
// A mod that declares "host:port" addresses (not "*") reaches those hosts
// only. Of the two ways there, a network namespace whose only way out is
// a proxy on loopback, and seccomp user notification with the host as
// supervisor, this package takes the second: it needs no namespace (which
// an unprivileged host may not make where user namespaces are off), no
// proxy in the path of every byte, and no change in how a mod dials; it
// costs a round trip to the host per connect, not per packet
// (BenchmarkConnect, loopback, on a busy two-core machine: a dial takes
// 24 µs at the fastest and 30 µs at the median with Landlock's port rule
// alone, 46 and 105 µs checked by the host; the restricted thread the
// host connects on is about 6 and 30 of those).
//
// The filter of such a mod returns SECCOMP_RET_USER_NOTIF for connect(2),
// whatever the socket (the filter cannot read the address or the socket's
// family), and is installed with SECCOMP_FILTER_FLAG_NEW_LISTENER on the
// confining thread; the kernel makes the notification fd close-on-exec,
// so it never reaches the mod. Its supervisor, started before the mod, on
// the host's own threads (which no filter confines: the filter is on the
// confining thread only, and that thread connects nowhere), answers each
// notification on a goroutine of its own:
//
//  1. opens a pidfd of the calling thread (PIDFD_THREAD, Linux 6.9; else
//     of its process, read from /proc), then checks that the notification
//     is still pending (SECCOMP_IOCTL_NOTIF_ID_VALID), so the pid was not
//     reused;
//  2. takes a copy of the socket (pidfd_getfd) and of the address
//     (process_vm_readv), and checks the notification again;
//  3. refuses (EACCES, as Landlock would, which the mod reads as the
//     host's "Permission denied" sentence) a connect on a socket that is
//     neither AF_INET nor AF_INET6, and a TCP connect to an address whose
//     port and host no declared address has. A declared IP literal is
//     compared as it is, an IPv4-mapped address as its IPv4 address; a
//     name is resolved by the host when a connect asks for its port, its
//     answer kept 30 seconds, and asked again, at most once a second, when
//     a connect's address is not in it;
//  4. connects its copy of the socket to its copy of the address (on a
//     restricted thread, below), and answers with that connect's result:
//     the same open file description as the mod's, so a non-blocking
//     socket reads EINPROGRESS in both and the mod waits for the
//     connection as it would have.
//
// It never answers SECCOMP_USER_NOTIF_FLAG_CONTINUE, which would have the
// kernel read the address again from the mod's memory, where another
// thread may have changed it since the check (TestConnectRace: with
// CONTINUE, 175 of 2000 racing connects reached the other host).
//
// UDP connects go through, to any host: a datagram's address is sendto's
// argument, which the filter cannot read without a notification per
// datagram, and a mod that declares network needs DNS. The host makes
// each connect on a thread of its own restricted by a Landlock ruleset
// that handles TCP connect alone and grants the mod's ports (from ABI 4),
// so that Landlock's port rule stays a layer under the host's check: one
// such thread per mod connects its non-blocking sockets (Go's), and a
// blocking socket gets a thread of its own, so that a slow connect waits
// alone. The supervisor stops when the mod's process has exited
// (or its start failed): it closes the notification fd, and a connect
// still made by a child of the mod then fails with ENOSYS. A notification
// whose thread died meanwhile is answered into nothing.
//
// It needs seccomp user notification (Linux 5.0), pidfd_open (5.3),
// pidfd_getfd (5.6), and a Yama ptrace_scope below 3 (2 with
// CAP_SYS_PTRACE): [Enforcement.HostCheck] says why not otherwise, the
// "TCP connect (by host)" row is not enforced, and Landlock filters by
// port alone.
//
// # No capability
//
// A host run as root would otherwise give its mods every capability
// (raw sockets, ptrace of any process, reading any file). The confining
// thread empties its bounding set when it holds CAP_SETPCAP, locks the
// secure bits SECBIT_NOROOT and SECBIT_NO_CAP_AMBIENT_RAISE (so that
// executing a program grants root nothing), clears the ambient set, then
// empties the effective, permitted and inheritable sets. The mod runs as
// the host's user still, with no more rights than the file modes give
// that user. An unprivileged host's bounding set stays as it is: its mods
// have no capability to keep, and no_new_privs stops them from gaining
// one by executing a program.
//
// # Knowing the mod is confined
//
// [Confined] is what a mod process reports about itself: it probes whether
// it may call unshare(2) with no flag, which the seccomp filter refuses,
// list the root directory, which only a policy reading "/" grants, or,
// from ABI 6, signal its parent; a process inside a Landlock domain may
// not. [Policy.Reportable] says whether a process can tell.
//
// The report's rows for the layers beside Landlock (the seccomp filter,
// the dropped capabilities) say what they keep below each Landlock ABI,
// and the holes left: a mod that may connect anywhere, or whose connects
// the host cannot check, reaches any pathname unix socket its user may
// open; a mod that declares network sends UDP to any host.
package sandbox

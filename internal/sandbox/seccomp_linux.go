package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// Offsets in struct seccomp_data: the system call's number, the
// architecture, then six 64-bit arguments. The filter reads an argument's
// low 32 bits only (amd64 and arm64 are little-endian): the kernel reads
// an int argument so, whatever the caller left in the high bits.
const (
	offNr   = 0
	offArch = 4
	offArgs = 16
)

// argLow is the offset of the low 32 bits of argument i.
func argLow(i uint32) uint32 { return offArgs + 8*i }

// Filter results: refusals are errors the mod's code reads (never a kill),
// EACCES for sockets and connections as Landlock gives, EPERM for the
// rest and for signals, as Landlock's scope gives.
const (
	allow  = unix.SECCOMP_RET_ALLOW
	eacces = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
	notify = unix.SECCOMP_RET_USER_NOTIF
	eperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	enosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
)

// x32Bit marks the system calls of the x32 ABI on amd64, which share the
// architecture value AUDIT_ARCH_X86_64 and so must be refused by number.
const x32Bit = 0x40000000

// refused are the system calls no mod needs and every mod is refused:
// other processes' memory and file descriptors (ptrace,
// process_vm_readv/writev, pidfd_getfd), kernel attack surface (bpf,
// perf_event_open, userfaultfd, io_uring, keyrings), mounts and
// namespaces, and tkill, which names a thread of any process by its id
// alone (Go signals its own threads with tgkill).
var refused = []uint32{
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_PIDFD_GETFD,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_MOVE_MOUNT, unix.SYS_OPEN_TREE,
	unix.SYS_OPEN_TREE_ATTR, unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK,
	unix.SYS_MOUNT_SETATTR,
	unix.SYS_UNSHARE, unix.SYS_SETNS,
	unix.SYS_TKILL,
}

// newNamespaces are clone(2)'s flags that make namespaces, as unshare(2)
// would.
const newNamespaces = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// auditArch is the architecture value of this build's system calls, 0
// where the filter is not written for it.
func auditArch() uint32 {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64
	}
	return 0
}

// seccompFilter is the filter of p's process.
func seccompFilter(p *Policy) ([]bpf.RawInstruction, error) {
	arch := auditArch()
	if arch == 0 {
		return nil, fmt.Errorf("seccomp: no filter for %s", runtime.GOARCH)
	}
	internet := p.internet()
	f := newProgram()
	f.load(offArch)
	f.jump(bpf.JumpNotEqual, arch, "eperm", "")
	f.load(offNr)
	if arch == unix.AUDIT_ARCH_X86_64 {
		f.jump(bpf.JumpGreaterOrEqual, x32Bit, "eperm", "")
	}
	// Each system call the filter refuses or reads the arguments of is a
	// case of a binary search on its number; the rest (read, write,
	// futex, epoll_pwait: a call's) are allowed at its leaves, a few
	// jumps in.
	cases := map[uint32]string{}
	for _, nr := range refused {
		cases[nr] = "eperm"
	}
	// glibc and Go fall back to clone, whose flags the filter can read;
	// clone3's are behind a pointer.
	cases[unix.SYS_CLONE3] = "enosys"
	cases[unix.SYS_CLONE] = "clone"
	cases[unix.SYS_KILL] = "kill"
	cases[unix.SYS_SOCKET] = "socket"
	cases[unix.SYS_SOCKETPAIR] = "socketpair"
	switch {
	case internet == InternetNone:
		cases[unix.SYS_CONNECT] = "eacces"
	case p.checksHosts():
		cases[unix.SYS_CONNECT] = "notify"
	}
	fastOpen := internet != InternetNone && !p.ConnectAny
	if fastOpen {
		cases[unix.SYS_SENDTO] = "flags3"
		cases[unix.SYS_SENDMMSG] = "flags3"
		cases[unix.SYS_SENDMSG] = "flags2"
	}
	f.dispatch(cases, "allow")

	if fastOpen {
		// sendto, sendmsg, sendmmsg: no TCP Fast Open, which connects
		// without connect(2).
		f.label("flags3")
		f.load(argLow(3))
		f.jump(bpf.JumpBitsSet, unix.MSG_FASTOPEN, "eacces", "allow")
		f.label("flags2")
		f.load(argLow(2))
		f.jump(bpf.JumpBitsSet, unix.MSG_FASTOPEN, "eacces", "allow")
	}

	// clone: no new namespace (the flags are the first argument on amd64
	// and arm64).
	f.label("clone")
	f.load(argLow(0))
	f.jump(bpf.JumpBitsSet, newNamespaces, "eperm", "allow")

	// kill: a positive pid. 0 and below are process groups and every
	// process the user may signal (the mod shares the host's group).
	f.label("kill")
	f.load(argLow(0))
	f.jump(bpf.JumpEqual, 0, "eperm", "")
	f.jump(bpf.JumpBitsSet, 1<<31, "eperm", "allow")

	// socketpair: no datagram pair, which could send to any unix socket
	// by its address.
	f.label("socketpair")
	f.load(argLow(1))
	f.and(sockTypeMask)
	f.jump(bpf.JumpEqual, unix.SOCK_DGRAM, "eacces", "allow")

	// socket: unix stream sockets (go-plugin's listener); internet and
	// netlink route sockets as the rule says; no other family.
	f.label("socket")
	f.load(argLow(0))
	f.jump(bpf.JumpEqual, unix.AF_UNIX, "unix", "")
	if internet != InternetNone {
		f.jump(bpf.JumpEqual, unix.AF_INET, "inet", "")
		f.jump(bpf.JumpEqual, unix.AF_INET6, "inet", "")
		f.jump(bpf.JumpEqual, unix.AF_NETLINK, "netlink", "")
	}
	f.ret(eacces)
	f.label("unix")
	f.load(argLow(1))
	f.and(sockTypeMask)
	f.jump(bpf.JumpEqual, unix.SOCK_STREAM, "allow", "eacces")
	if internet != InternetNone {
		f.label("inet")
		f.load(argLow(1))
		f.and(sockTypeMask)
		f.jump(bpf.JumpEqual, unix.SOCK_STREAM, "tcp", "")
		if internet == InternetTCPUDP {
			f.jump(bpf.JumpEqual, unix.SOCK_DGRAM, "udp", "")
		}
		f.ret(eacces) // raw, SCTP and the rest
		f.label("tcp")
		f.load(argLow(2))
		f.jump(bpf.JumpEqual, 0, "allow", "")
		f.jump(bpf.JumpEqual, unix.IPPROTO_TCP, "allow", "eacces") // not MPTCP
		if internet == InternetTCPUDP {
			f.label("udp")
			f.load(argLow(2))
			f.jump(bpf.JumpEqual, 0, "allow", "")
			f.jump(bpf.JumpEqual, unix.IPPROTO_UDP, "allow", "eacces") // not ICMP
		}
		f.label("netlink")
		f.load(argLow(2))
		f.jump(bpf.JumpEqual, unix.NETLINK_ROUTE, "allow", "eacces")
	}

	f.label("allow")
	f.ret(allow)
	f.label("eacces")
	f.ret(eacces)
	f.label("eperm")
	f.ret(eperm)
	f.label("enosys")
	f.ret(enosys)
	f.label("notify")
	f.ret(notify)
	return f.assemble()
}

// sockTypeMask leaves a socket's type without SOCK_NONBLOCK and
// SOCK_CLOEXEC (the kernel's SOCK_TYPE_MASK).
const sockTypeMask = 0xf

// installFilter installs filter on the calling thread only (no TSYNC),
// which no_new_privs must already mark; the processes it starts inherit
// it. With listen, the filter notifies: installFilter returns its
// notification fd (close-on-exec), else -1.
func installFilter(filter []bpf.RawInstruction, listen bool) (int, error) {
	raw := make([]unix.SockFilter, len(filter))
	for i, in := range filter {
		raw[i] = unix.SockFilter{Code: in.Op, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	prog := unix.SockFprog{Len: uint16(len(raw)), Filter: &raw[0]}
	flags := uintptr(0)
	if listen {
		flags = unix.SECCOMP_FILTER_FLAG_NEW_LISTENER
	}
	fd, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(raw)
	if errno != 0 {
		return -1, fmt.Errorf("seccomp(SECCOMP_SET_MODE_FILTER): %w", errno)
	}
	if !listen {
		return -1, nil
	}
	return int(fd), nil
}

// SeccompSupported returns nil when this machine can install the filter
// Start gives every process, else an error saying why not, naming the
// kernel. A host that confines with Landlock below ABI 4 relies on the
// filter to close the network (Policy.Internet InternetNone).
func SeccompSupported() error {
	if auditArch() == 0 {
		return fmt.Errorf("the seccomp filter is written for amd64 and arm64, not %s", runtime.GOARCH)
	}
	if _, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("Linux %s offers no seccomp: %w", kernelRelease(), err)
	}
	action := uint32(unix.SECCOMP_RET_ERRNO)
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&action))); errno != 0 {
		return fmt.Errorf("Linux %s offers no seccomp filter returning an error: %w", kernelRelease(), errno)
	}
	return nil
}

// kernelRelease is the running kernel's release, for messages.
func kernelRelease() string {
	var uts unix.Utsname
	if unix.Uname(&uts) != nil {
		return "unknown"
	}
	return unix.ByteSliceToString(uts.Release[:])
}

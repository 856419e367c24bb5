package probe

import (
	"os"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// call makes the system call nr and returns its error, named after the
// call's name up to its parenthesis.
func call(name string, nr uintptr, args ...uintptr) error {
	var a [6]uintptr
	copy(a[:], args)
	_, _, errno := unix.Syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5])
	if errno != 0 {
		syscallName, _, _ := strings.Cut(name, "(")
		return os.NewSyscallError(syscallName, errno)
	}
	return nil
}

// attempt is the Attempt of a system call that returns no descriptor.
func attempt(name string, nr uintptr, args ...uintptr) Attempt {
	return Attempt{Name: name, Try: func() error { return call(name, nr, args...) }}
}

// str is a pointer to a NUL-terminated copy of s.
func str(s string) uintptr {
	p, _ := unix.BytePtrFromString(s)
	return uintptr(unsafe.Pointer(p))
}

// neg is the int n as a system call argument.
func neg(n int) uintptr { return uintptr(n) }

// Refused are the calls the filter refuses every process, whatever its
// policy.
func Refused() []Attempt {
	self := uintptr(os.Getpid())
	return []Attempt{
		attempt("ptrace(PTRACE_PEEKDATA, no such process)", unix.SYS_PTRACE, unix.PTRACE_PEEKDATA, 0),
		attempt("process_vm_readv(self, nothing)", unix.SYS_PROCESS_VM_READV, self),
		attempt("process_vm_writev(self, nothing)", unix.SYS_PROCESS_VM_WRITEV, self),
		attempt("pidfd_getfd(-1)", unix.SYS_PIDFD_GETFD, neg(-1)),
		attempt("bpf(-1)", unix.SYS_BPF, neg(-1)),
		attempt("perf_event_open(NULL)", unix.SYS_PERF_EVENT_OPEN, 0, 0, neg(-1), neg(-1)),
		attempt("userfaultfd(bad flags)", unix.SYS_USERFAULTFD, 1<<30),
		attempt("io_uring_setup(0, NULL)", unix.SYS_IO_URING_SETUP, 0, 0),
		attempt("io_uring_enter(-1)", unix.SYS_IO_URING_ENTER, neg(-1)),
		attempt("io_uring_register(-1)", unix.SYS_IO_URING_REGISTER, neg(-1)),
		attempt("keyctl(KEYCTL_GET_KEYRING_ID, session)", unix.SYS_KEYCTL, unix.KEYCTL_GET_KEYRING_ID, neg(unix.KEY_SPEC_SESSION_KEYRING)),
		attempt("add_key(user, no keyring)", unix.SYS_ADD_KEY, str("user"), str("probe"), 0, 0, 0),
		attempt("request_key(user, no such key)", unix.SYS_REQUEST_KEY, str("user"), str("modkit-probe-none"), 0, 0),
		attempt("mount(no such path)", unix.SYS_MOUNT, str("none"), str("/modkit-probe-none"), str("tmpfs"), 0, 0),
		attempt("umount2(no such path)", unix.SYS_UMOUNT2, str("/modkit-probe-none"), 0),
		attempt("pivot_root(no such path)", unix.SYS_PIVOT_ROOT, str("/modkit-probe-none"), str("/modkit-probe-none")),
		attempt("move_mount(-1)", unix.SYS_MOVE_MOUNT, neg(-1), str(""), neg(-1), str(""), 0),
		attempt("open_tree(-1)", unix.SYS_OPEN_TREE, neg(-1), str("modkit-probe-none"), 0),
		attempt("fsopen(no such filesystem)", unix.SYS_FSOPEN, str("modkit-probe-none"), 0),
		attempt("unshare(nothing)", unix.SYS_UNSHARE, 0),
		attempt("setns(-1)", unix.SYS_SETNS, neg(-1), 0),
		attempt("clone(CLONE_NEWUSER|CLONE_FS)", unix.SYS_CLONE, unix.CLONE_NEWUSER|unix.CLONE_FS),
		attempt("tkill(own thread, 0)", unix.SYS_TKILL, uintptr(unix.Gettid()), 0),
		attempt("kill(0, 0)", unix.SYS_KILL, 0, 0),
		attempt("kill(-1, 0)", unix.SYS_KILL, neg(-1), 0),
		attempt("kill(-1 in the low 32 bits, 0)", unix.SYS_KILL, 0xffffffff, 0),
	}
}

// Allowed are calls near the refused ones that every process keeps: its
// own signals and threads. clone3 reads ENOSYS, so that Go and the C
// library fall back to clone.
func Allowed() []Attempt {
	return []Attempt{
		attempt("kill(self, 0)", unix.SYS_KILL, uintptr(os.Getpid()), 0),
		attempt("tgkill(self, own thread, 0)", unix.SYS_TGKILL, uintptr(os.Getpid()), uintptr(unix.Gettid()), 0),
		attempt("prctl(PR_GET_SECCOMP)", unix.SYS_PRCTL, unix.PR_GET_SECCOMP),
	}
}

// socket is the Attempt of socket(2) or socketpair(2), closing what it
// opens.
func socket(name string, pair bool, family, typ, proto uintptr) Attempt {
	return Attempt{Name: name, Try: func() error {
		if pair {
			var fds [2]int32
			err := call(name, unix.SYS_SOCKETPAIR, family, typ, proto, uintptr(unsafe.Pointer(&fds)))
			if err == nil {
				unix.Close(int(fds[0]))
				unix.Close(int(fds[1]))
			}
			return err
		}
		fd, _, errno := unix.Syscall(unix.SYS_SOCKET, family, typ, proto)
		if errno != 0 {
			return os.NewSyscallError("socket", errno)
		}
		unix.Close(int(fd))
		return nil
	}}
}

// highBits is junk in an argument's high 32 bits, where there are.
var highBits = uintptr(highWord)

var highWord uint64 = 1 << 32

// Sockets are the sockets a process may or may not open, by its policy's
// Internet rule. Arguments carry SOCK_CLOEXEC, as Go's do, and one carries
// junk in its high 32 bits, which the kernel ignores.
func Sockets() []Attempt {
	const cloexec = unix.SOCK_CLOEXEC | unix.SOCK_NONBLOCK
	return []Attempt{
		socket("socket(AF_UNIX, SOCK_STREAM)", false, unix.AF_UNIX, unix.SOCK_STREAM|cloexec, 0),
		socket("socket(AF_UNIX, SOCK_DGRAM)", false, unix.AF_UNIX, unix.SOCK_DGRAM|cloexec, 0),
		socket("socket(AF_UNIX, SOCK_SEQPACKET)", false, unix.AF_UNIX, unix.SOCK_SEQPACKET|cloexec, 0),
		socket("socketpair(AF_UNIX, SOCK_STREAM)", true, unix.AF_UNIX, unix.SOCK_STREAM|cloexec, 0),
		socket("socketpair(AF_UNIX, SOCK_DGRAM)", true, unix.AF_UNIX, unix.SOCK_DGRAM|cloexec, 0),
		socket("socket(AF_INET, SOCK_STREAM)", false, unix.AF_INET, unix.SOCK_STREAM|cloexec, 0),
		socket("socket(AF_INET6, SOCK_STREAM, IPPROTO_TCP)", false, unix.AF_INET6, unix.SOCK_STREAM|cloexec, unix.IPPROTO_TCP),
		socket("socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP)", false, unix.AF_INET, unix.SOCK_STREAM|cloexec, unix.IPPROTO_MPTCP),
		socket("socket(AF_INET6, SOCK_STREAM, IPPROTO_MPTCP)", false, unix.AF_INET6, unix.SOCK_STREAM|cloexec, unix.IPPROTO_MPTCP),
		socket("socket(AF_INET, SOCK_DGRAM)", false, unix.AF_INET, unix.SOCK_DGRAM|cloexec, 0),
		socket("socket(AF_INET6, SOCK_DGRAM, IPPROTO_UDP)", false, unix.AF_INET6, unix.SOCK_DGRAM|cloexec, unix.IPPROTO_UDP),
		socket("socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP)", false, unix.AF_INET, unix.SOCK_DGRAM|cloexec, unix.IPPROTO_ICMP),
		socket("socket(AF_INET, SOCK_RAW, IPPROTO_ICMP)", false, unix.AF_INET, unix.SOCK_RAW|cloexec, unix.IPPROTO_ICMP),
		socket("socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)", false, unix.AF_NETLINK, unix.SOCK_RAW|cloexec, unix.NETLINK_ROUTE),
		socket("socket(AF_NETLINK, SOCK_RAW, NETLINK_SOCK_DIAG)", false, unix.AF_NETLINK, unix.SOCK_RAW|cloexec, unix.NETLINK_SOCK_DIAG),
		socket("socket(AF_PACKET, SOCK_RAW)", false, unix.AF_PACKET, unix.SOCK_RAW|cloexec, 0x0300),
		socket("socket(AF_PACKET with high bits, SOCK_DGRAM)", false, highBits|unix.AF_PACKET, unix.SOCK_DGRAM|cloexec, 0x0300),
		socket("socket(AF_VSOCK, SOCK_STREAM)", false, unix.AF_VSOCK, unix.SOCK_STREAM|cloexec, 0),
	}
}

// Capabilities are the calling thread's capability sets, named as
// /proc/self/status names them (which a confined process may not read).
func Capabilities() map[string]uint64 {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	sets := map[string]uint64{}
	if unix.Capget(&hdr, &data[0]) == nil {
		sets["CapEff"] = uint64(data[1].Effective)<<32 | uint64(data[0].Effective)
		sets["CapPrm"] = uint64(data[1].Permitted)<<32 | uint64(data[0].Permitted)
		sets["CapInh"] = uint64(data[1].Inheritable)<<32 | uint64(data[0].Inheritable)
	}
	var bnd, amb uint64
	for c := range 64 {
		if n, err := unix.PrctlRetInt(unix.PR_CAPBSET_READ, uintptr(c), 0, 0, 0); err == nil && n == 1 {
			bnd |= 1 << c
		}
		if n, err := unix.PrctlRetInt(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_IS_SET, uintptr(c), 0, 0); err == nil && n == 1 {
			amb |= 1 << c
		}
	}
	sets["CapBnd"], sets["CapAmb"] = bnd, amb
	return sets
}

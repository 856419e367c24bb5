package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// ABI returns the kernel's Landlock ABI version, 0 when it has none.
func ABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// kernel asks the kernel, once, for its release, Landlock ABI and
// seccomp filter.
var kernel = sync.OnceValue(func() kernelFacts {
	k := kernelFacts{abi: ABI(), release: "unknown", seccomp: SeccompSupported(), hosts: hostCheckSupported()}
	var uts unix.Utsname
	if unix.Uname(&uts) == nil {
		k.release = unix.ByteSliceToString(uts.Release[:])
	}
	return k
})

// Access rights a rule grants, before handledMasks trims them to an ABI.
const (
	fsRead  = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	fsExec  = unix.LANDLOCK_ACCESS_FS_EXECUTE
	fsWrite = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_FILE | unix.LANDLOCK_ACCESS_FS_MAKE_DIR |
		unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_SYM |
		unix.LANDLOCK_ACCESS_FS_REFER | unix.LANDLOCK_ACCESS_FS_TRUNCATE
	fsFile = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	// ruleNetPort is LANDLOCK_RULE_NET_PORT.
	ruleNetPort = 2
)

// handledMasks returns the rights a ruleset for Landlock ABI abi handles,
// every right that ABI knows (what no rule grants is denied), and the
// size of the ruleset attribute that ABI reads. ABI 1 always refuses
// linking and renaming across directories; from ABI 2 the ruleset handles
// it (REFER), and grants it where files may be written.
func handledMasks(abi int) (attr unix.LandlockRulesetAttr, size uintptr) {
	fs := uint64(1)<<13 - 1 // EXECUTE through MAKE_SYM
	if abi >= 2 {
		fs |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		fs |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		fs |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	attr.Handled_access_fs = fs
	size = unsafe.Offsetof(attr.Handled_access_net)
	if abi >= 4 {
		attr.Handled_access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		size = unsafe.Offsetof(attr.Scoped)
	}
	if abi >= 6 {
		// ABI 7 adds audit logging flags to landlock_restrict_self only.
		attr.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
		size = unsafe.Sizeof(attr)
	}
	return attr, size
}

// netPortAttr is struct landlock_net_port_attr.
type netPortAttr struct {
	allowed uint64
	port    uint64
}

// ruleset builds the Landlock ruleset of p for Landlock ABI p.ABI and
// returns its descriptor; -1 when p.ABI is 0, which applies none.
func ruleset(p *Policy) (int, error) {
	if p.ABI <= 0 {
		return -1, nil
	}
	attr, size := handledMasks(min(p.ABI, LatestABI))
	if p.ConnectAny {
		attr.Handled_access_net = 0
	}
	r, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return -1, fmt.Errorf("landlock_create_ruleset for ABI %d: %w", p.ABI, errno)
	}
	fd := int(r)
	handled := attr.Handled_access_fs
	add := func(paths []string, access uint64) error {
		for _, path := range paths {
			if err := addPath(fd, path, access&handled); err != nil {
				return err
			}
		}
		return nil
	}
	exec := uint64(0)
	if p.ExecAny {
		exec = fsExec
	}
	err := errors.Join(
		add(p.Read, fsRead|exec),
		add(p.ReadExec, fsRead|fsExec),
		add(p.Write, fsRead|fsWrite|exec),
		add(p.Exec, fsExec|unix.LANDLOCK_ACCESS_FS_READ_FILE),
	)
	if err == nil && p.ExecAny {
		err = addPath(fd, "/", fsExec)
	}
	if attr.Handled_access_net != 0 {
		err = errors.Join(err, addPorts(fd, p.ConnectPorts))
	}
	if err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// addPorts grants TCP connect to ports.
func addPorts(fd int, ports []uint16) error {
	var err error
	for _, port := range ports {
		a := netPortAttr{allowed: unix.LANDLOCK_ACCESS_NET_CONNECT_TCP, port: uint64(port)}
		if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(fd), ruleNetPort, uintptr(unsafe.Pointer(&a)), 0, 0, 0); errno != 0 {
			err = errors.Join(err, fmt.Errorf("landlock rule for TCP port %d: %w", port, errno))
		}
	}
	return err
}

// connectRuleset returns the descriptor of a Landlock ruleset that handles
// TCP connect alone and grants p's ports: the host's connects for p's
// process keep Landlock's port rule. -1 below ABI 4, which filters no
// port.
func connectRuleset(p *Policy) (int, error) {
	if p.ABI < 4 {
		return -1, nil
	}
	attr := unix.LandlockRulesetAttr{Handled_access_net: unix.LANDLOCK_ACCESS_NET_CONNECT_TCP}
	r, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Offsetof(attr.Scoped), 0)
	if errno != 0 {
		return -1, fmt.Errorf("landlock_create_ruleset for TCP connect: %w", errno)
	}
	fd := int(r)
	if err := addPorts(fd, p.ConnectPorts); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// addPath grants access beneath path; a missing path grants nothing.
func addPath(fd int, path string, access uint64) error {
	pfd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return nil
		}
		return fmt.Errorf("landlock rule for %s: %w", path, err)
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	if err := unix.Fstat(pfd, &st); err != nil {
		return fmt.Errorf("landlock rule for %s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= fsFile // rights on directories make no sense on a file
	}
	a := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(pfd)}
	if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(fd), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&a)), 0, 0, 0); errno != 0 {
		return fmt.Errorf("landlock rule for %s: %w", path, errno)
	}
	return nil
}

// Start runs start, which must start a process and return, on a new OS
// thread confined by p, so that the process is born confined. The thread
// lives until exited is closed (the process's parent-death signal follows
// it), then is destroyed. The ruleset and the seccomp filter are built
// before the thread is restricted; Start returns start's error, or why p
// could not be applied. When the host checks the process's connects
// ([Policy.CheckHosts]), their supervisor runs until exited is closed,
// or stops at once when the start fails.
func Start(p *Policy, start func() error, exited <-chan struct{}) error {
	var filter []bpf.RawInstruction
	var hosts *hostList
	if p.Seccomp {
		var err error
		if filter, err = seccompFilter(p); err != nil {
			return err
		}
		if p.checksHosts() {
			if hosts, err = newHostList(p.Connect); err != nil {
				return err
			}
		}
	}
	connectFd := -1
	if hosts != nil {
		var err error
		if connectFd, err = connectRuleset(p); err != nil {
			return err
		}
	}
	fd, err := ruleset(p)
	if err != nil {
		if connectFd >= 0 {
			unix.Close(connectFd)
		}
		return err
	}
	var sup *supervisor
	done := make(chan error, 1)
	go confinedStart(func() error {
		if fd >= 0 {
			defer unix.Close(fd)
		}
		listener, err := restrictThread(fd, filter, hosts != nil)
		if err == nil && listener >= 0 {
			// Before start: the process's first connect waits for it.
			sup, err = supervise(listener, hosts, connectFd)
		} else if connectFd >= 0 {
			unix.Close(connectFd)
		}
		return err
	}, start, exited, done)
	err = <-done
	if sup != nil {
		if err != nil {
			sup.stop()
		} else {
			go func() {
				<-exited
				sup.stop()
			}()
		}
	}
	return err
}

// confinedStart locks its goroutine to a thread other than the main one,
// restricts that thread, runs start, sends its error on done and, when the
// process started, parks until exited closes. It returns locked, so the
// runtime ends the restricted thread.
func confinedStart(restrict, start func() error, exited <-chan struct{}, done chan<- error) {
	runtime.LockOSThread()
	if unix.Gettid() == unix.Getpid() {
		// The main thread must stay unconfined, and would not end: start
		// from another thread, which cannot be this one while it is locked.
		locked := make(chan struct{})
		go func() {
			runtime.LockOSThread()
			close(locked)
			confinedStart(restrict, start, exited, done)
		}()
		<-locked
		runtime.UnlockOSThread()
		return
	}
	err := restrict()
	if err == nil {
		err = start()
	}
	done <- err
	if err == nil {
		<-exited
	}
}

// restrictThread confines the calling thread only, in this order:
// no_new_privs, which the rest needs; no capability left (a host run as
// root gives its mods none); the Landlock ruleset fd, unless -1; last the
// seccomp filter, unless nil, so that no step before it meets a refusal.
// With listen, the filter notifies, and restrictThread returns its
// notification fd; else -1.
func restrictThread(fd int, filter []bpf.RawInstruction, listen bool) (int, error) {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return -1, fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if err := dropCapabilities(); err != nil {
		return -1, err
	}
	if fd >= 0 {
		if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), 0, 0); errno != 0 {
			return -1, fmt.Errorf("landlock_restrict_self: %w", errno)
		}
	}
	if filter == nil {
		return -1, nil
	}
	return installFilter(filter, listen)
}

// Confined reports whether Start confined the calling process: its
// seccomp filter refuses unshare(2), even with no flag, which changes
// nothing; a Landlock domain at any ABI refuses listing the root
// directory, unless its policy reads "/" (ExecAny grants only running
// programs beneath it), and from ABI 6 signalling its parent, outside
// the domain. [Policy.Reportable] says whether it can tell. Root's
// capabilities lift none of these refusals. A container runtime whose
// seccomp profile refuses unshare(2) makes an unconfined process say true
// too: the host asks only the processes it confined.
func Confined() bool {
	if errors.Is(unix.Unshare(0), unix.EPERM) {
		return true
	}
	fd, err := unix.Open("/", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err == nil {
		unix.Close(fd)
	}
	if errors.Is(err, unix.EACCES) {
		return true
	}
	return ABI() >= 6 && errors.Is(unix.Kill(os.Getppid(), 0), unix.EPERM)
}

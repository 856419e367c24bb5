package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
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

// Check returns nil when the kernel can enforce a Policy, else an error
// saying why not: the kernel's version and what its Landlock lacks.
func Check() error {
	if disabled.Load() {
		return errDisabled
	}
	abi := ABI()
	if abi >= RequiredABI {
		return nil
	}
	var uts unix.Utsname
	release := "unknown"
	if unix.Uname(&uts) == nil {
		release = unix.ByteSliceToString(uts.Release[:])
	}
	if abi == 0 {
		return fmt.Errorf("Linux %s offers no Landlock (it needs Linux 6.12 or later with Landlock enabled, ABI %d)", release, RequiredABI)
	}
	var missing []string
	for v := abi + 1; v <= RequiredABI; v++ {
		missing = append(missing, fmt.Sprintf("%s (ABI %d)", abiFeatures[v], v))
	}
	return fmt.Errorf("Linux %s offers Landlock ABI %d, which lacks %s", release, abi, strings.Join(missing, ", "))
}

// Access rights of the handled set, by what a rule grants.
const (
	fsRead  = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	fsExec  = unix.LANDLOCK_ACCESS_FS_EXECUTE
	fsWrite = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_FILE | unix.LANDLOCK_ACCESS_FS_MAKE_DIR |
		unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_SYM |
		unix.LANDLOCK_ACCESS_FS_REFER | unix.LANDLOCK_ACCESS_FS_TRUNCATE
	// fsHandled is every filesystem right up to ABI 6: what no rule
	// grants is denied.
	fsHandled = 1<<16 - 1
	fsFile    = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	netHandled = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	scoped     = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
	// ruleNetPort is LANDLOCK_RULE_NET_PORT.
	ruleNetPort = 2
)

// netPortAttr is struct landlock_net_port_attr.
type netPortAttr struct {
	allowed uint64
	port    uint64
}

// ruleset builds the Landlock ruleset of p and returns its descriptor.
func ruleset(p *Policy) (int, error) {
	attr := unix.LandlockRulesetAttr{Handled_access_fs: fsHandled, Scoped: scoped}
	if !p.ConnectAny {
		attr.Handled_access_net = netHandled
	}
	r, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return -1, fmt.Errorf("landlock_create_ruleset: %w", errno)
	}
	fd := int(r)
	add := func(paths []string, access uint64) error {
		for _, path := range paths {
			if err := addPath(fd, path, access); err != nil {
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
	if !p.ConnectAny {
		for _, port := range p.ConnectPorts {
			a := netPortAttr{allowed: unix.LANDLOCK_ACCESS_NET_CONNECT_TCP, port: uint64(port)}
			if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(fd), ruleNetPort, uintptr(unsafe.Pointer(&a)), 0, 0, 0); errno != 0 {
				err = errors.Join(err, fmt.Errorf("landlock rule for TCP port %d: %w", port, errno))
			}
		}
	}
	if err != nil {
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
// could not be applied.
func Start(p *Policy, start func() error, exited <-chan struct{}) error {
	filter, err := seccompFilter(p)
	if err != nil {
		return err
	}
	fd, err := ruleset(p)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go confinedStart(func() error {
		defer unix.Close(fd)
		return restrictThread(fd, filter)
	}, start, exited, done)
	return <-done
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
// root gives its mods none); the Landlock ruleset fd; last the seccomp
// filter, so that no step before it meets a refusal.
func restrictThread(fd int, filter []bpf.RawInstruction) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", errno)
	}
	return installFilter(filter)
}

// Confined reports whether the calling process runs in a Landlock domain
// scoped for signals, which is what Start gives every mod: such a process
// may not signal its parent, outside the domain.
func Confined() bool {
	if ABI() < RequiredABI {
		return false
	}
	return errors.Is(unix.Kill(os.Getppid(), 0), unix.EPERM)
}

package sandbox

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"runtime"
	"strconv"
	"sync"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccompData, seccompNotif and seccompNotifResp are the kernel's struct
// seccomp_data, seccomp_notif and seccomp_notif_resp.
type seccompData struct {
	nr   int32
	arch uint32
	ip   uint64
	args [6]uint64
}

type seccompNotif struct {
	id    uint64
	pid   uint32
	flags uint32
	data  seccompData
}

type seccompNotifResp struct {
	id    uint64
	val   int64
	error int32
	flags uint32
}

// sockaddrMax is sizeof(struct sockaddr_storage): connect(2) refuses a
// longer address.
const sockaddrMax = 128

// supervisors counts the running supervisors and their connect threads,
// so that tests see them all stop.
var supervisors sync.WaitGroup

// beforeConnect, when set (by tests), runs in the supervisor before it
// connects a socket it allowed.
var beforeConnect func()

// supervisor answers the connect(2) calls of one confined process (and
// its children, which inherit the filter): it checks each address against
// hosts and connects the process's own socket itself, on the host's copy
// of the address, so that no thread of the process can change the address
// between the check and the connect.
type supervisor struct {
	listener *os.File // the filter's notification fd, non-blocking
	hosts    *hostList
	// ruleset is a Landlock ruleset of the process's TCP ports (-1 for
	// none), which restricts the threads that connect for it.
	ruleset  int
	connects chan connectJob // to the thread connecting non-blocking sockets
	answers  sync.WaitGroup  // the notifications being answered, and the connect thread until restricted
	done     chan struct{}   // closed by stop
	stopOnce sync.Once
}

// supervise starts the supervisor of the filter whose notification fd is
// listener; it connects on threads restricted by the Landlock ruleset
// (unless -1), and closes it when it ends.
func supervise(listener int, hosts *hostList, ruleset int) (*supervisor, error) {
	if err := unix.SetNonblock(listener, true); err != nil {
		unix.Close(listener)
		if ruleset >= 0 {
			unix.Close(ruleset)
		}
		return nil, fmt.Errorf("seccomp notification fd: %w", err)
	}
	s := &supervisor{listener: os.NewFile(uintptr(listener), "seccomp-notify"), hosts: hosts, ruleset: ruleset,
		connects: make(chan connectJob), done: make(chan struct{})}
	if ruleset >= 0 {
		supervisors.Add(1)
		s.answers.Add(1) // until it is restricted: run closes the ruleset after
		onThrowawayThread(s.connector)
	}
	supervisors.Add(1)
	go s.run()
	return s, nil
}

// stop closes the notification fd: the supervisor ends, and a connect the
// process still makes fails with ENOSYS.
func (s *supervisor) stop() {
	s.stopOnce.Do(func() {
		s.listener.Close()
		close(s.done)
	})
}

// connectJob is a connect to make on a restricted thread, and where its
// errno goes.
type connectJob struct {
	connect func() unix.Errno
	result  chan<- unix.Errno
}

// run makes the connect on the calling thread, restricted when restricted
// is nil, else refused (EACCES).
func (j connectJob) run(restricted error) {
	if restricted != nil {
		j.result <- unix.EACCES
		return
	}
	j.result <- j.connect()
}

// onThrowawayThread runs f on a goroutine locked to a thread other than
// the main one, which the runtime ends when f returns: f may restrict it.
func onThrowawayThread(f func()) {
	go func() {
		runtime.LockOSThread() // never unlocked: the runtime ends the thread
		if isMainThread() {
			// The main thread would not end: go again, from a thread that
			// cannot be this one while this goroutine holds it locked, as
			// confinedStart does, then free it. Freed at once, the main
			// thread ran the new goroutine next, over and over: hundreds to
			// thousands of rounds a start while the other threads were busy.
			locked := make(chan struct{})
			go func() {
				runtime.LockOSThread()
				close(locked)
				f()
			}()
			<-locked
			runtime.UnlockOSThread()
			return
		}
		f()
	}()
}

// isMainThread reports whether the calling thread is the process's main
// thread (a variable for the tests, which count its calls).
var isMainThread = func() bool { return unix.Gettid() == unix.Getpid() }

// connector connects non-blocking sockets for the process, one at a time,
// on a throwaway thread restricted by the ruleset, until the supervisor
// stops.
func (s *supervisor) connector() {
	defer supervisors.Done()
	err := restrictConnects(s.ruleset)
	s.answers.Done()
	for {
		select {
		case job := <-s.connects:
			job.run(err)
		case <-s.done:
			return
		}
	}
}

// restrictConnects restricts the calling thread's TCP connects by the
// Landlock ruleset: Landlock's port rule stays a layer under the host's
// check.
func restrictConnects(ruleset int) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); errno != 0 {
		return errno
	}
	return nil
}

// connect connects sock to the raw address addr, and returns the errno,
// 0 for success: directly without a ruleset; else on the connector's
// thread when sock is non-blocking, on a restricted thread of its own
// when it is blocking, so that a slow connect waits alone. A thread that
// cannot be restricted connects nothing (EACCES).
func (s *supervisor) connect(sock int, addr []byte) unix.Errno {
	raw := func() unix.Errno {
		_, _, errno := unix.Syscall(unix.SYS_CONNECT, uintptr(sock), uintptr(unsafe.Pointer(unsafe.SliceData(addr))), uintptr(len(addr)))
		return errno
	}
	if s.ruleset < 0 {
		return raw()
	}
	result := make(chan unix.Errno, 1)
	job := connectJob{connect: raw, result: result}
	if flags, err := unix.FcntlInt(uintptr(sock), unix.F_GETFL, 0); err == nil && flags&unix.O_NONBLOCK != 0 {
		select {
		case s.connects <- job:
		case <-s.done:
			return unix.EACCES
		}
	} else {
		onThrowawayThread(func() { job.run(restrictConnects(s.ruleset)) })
	}
	return <-result
}

// errHungUp: no process uses the filter any more.
var errHungUp = errors.New("hung up")

// run receives notifications until the fd is closed or no process uses
// the filter, and answers each on a goroutine of its own, so that a
// blocking connect waits alone.
func (s *supervisor) run() {
	defer supervisors.Done()
	defer func() {
		s.answers.Wait()
		if s.ruleset >= 0 {
			unix.Close(s.ruleset)
		}
	}()
	rc, err := s.listener.SyscallConn()
	if err != nil {
		return
	}
	for {
		var req seccompNotif
		var recvErr error
		err := rc.Read(func(fd uintptr) bool {
			ready := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			if n, err := unix.Poll(ready, 0); err != nil || n == 0 {
				return false // wait for the poller
			}
			if ready[0].Revents&unix.POLLIN == 0 {
				recvErr = errHungUp
				return true
			}
			// Counted by the kernel per notification, RECV does not block
			// here: a notification withdrawn meanwhile reads ENOENT.
			req = seccompNotif{}
			recvErr = ioctl(fd, unix.SECCOMP_IOCTL_NOTIF_RECV, unsafe.Pointer(&req))
			return true
		})
		switch {
		case err != nil || errors.Is(recvErr, errHungUp):
			s.stop()
			return
		case recvErr != nil: // withdrawn: the caller was interrupted or died
			continue
		}
		s.answers.Add(1)
		go func() {
			defer s.answers.Done()
			s.answer(req.id, s.decide(&req))
		}()
	}
}

// answer sends the result of notification id: 0 or the errno the
// process's call returns. The process may be gone (ENOENT); then nothing
// waits for it.
func (s *supervisor) answer(id uint64, errno unix.Errno) {
	resp := seccompNotifResp{id: id, error: -int32(errno)}
	rc, err := s.listener.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) { ioctl(fd, unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(&resp)) })
}

// valid reports whether notification id still waits for its answer: its
// thread neither died nor was interrupted, so its pid names it still.
func (s *supervisor) valid(id uint64) bool {
	rc, err := s.listener.SyscallConn()
	if err != nil {
		return false
	}
	var ok bool
	rc.Control(func(fd uintptr) { ok = ioctl(fd, unix.SECCOMP_IOCTL_NOTIF_ID_VALID, unsafe.Pointer(&id)) == nil })
	return ok
}

// decide checks one connect(2) and, when the address is allowed, makes
// it: it returns the call's errno, 0 for success. It refuses (EACCES) a
// TCP connect to an address the list lacks and a connect on any socket
// but an internet one: a process whose connects the host checks reaches no
// unix socket made outside it. UDP connects go through, as UDP's sendto
// does: the filter cannot read sendto's address without a notification
// per datagram.
func (s *supervisor) decide(req *seccompNotif) unix.Errno {
	if req.data.nr != unix.SYS_CONNECT {
		return unix.EACCES // the filter notifies nothing else
	}
	pid, pidfd, err := openThread(int(req.pid))
	if err != nil {
		return unix.ESRCH
	}
	defer unix.Close(pidfd)
	// The notification still pending, its pid was not reused: the pidfd
	// names the process that asked.
	if !s.valid(req.id) {
		return unix.ESRCH
	}
	sock, err := unix.PidfdGetfd(pidfd, int(int32(req.data.args[0])), 0)
	if err != nil {
		return errnoOf(err, unix.EBADF)
	}
	defer unix.Close(sock)
	size := int(uint32(req.data.args[2]))
	if size > sockaddrMax {
		return unix.EINVAL
	}
	addr := make([]byte, max(size, 1))
	if size > 0 {
		local := []unix.Iovec{{Base: &addr[0]}}
		local[0].SetLen(size)
		remote := []unix.RemoteIovec{{Base: uintptr(req.data.args[1]), Len: size}}
		if n, err := unix.ProcessVMReadv(pid, local, remote, 0); err != nil || n != size {
			return unix.EFAULT
		}
	}
	if !s.valid(req.id) {
		return unix.ESRCH
	}
	domain, err := unix.GetsockoptInt(sock, unix.SOL_SOCKET, unix.SO_DOMAIN)
	if err != nil {
		return errnoOf(err, unix.ENOTSOCK)
	}
	typ, err := unix.GetsockoptInt(sock, unix.SOL_SOCKET, unix.SO_TYPE)
	if err != nil {
		return errnoOf(err, unix.ENOTSOCK)
	}
	if domain != unix.AF_INET && domain != unix.AF_INET6 {
		return unix.EACCES
	}
	if typ == unix.SOCK_STREAM && !s.allowsAddr(addr[:size]) {
		return unix.EACCES
	}
	if beforeConnect != nil {
		beforeConnect()
	}
	// The same open file description as the process's: a non-blocking
	// socket reads EINPROGRESS here and there, and the process waits for
	// the connection as it would have.
	return s.connect(sock, addr[:size])
}

// allowsAddr reports whether the host lets a TCP socket connect to the
// raw address addr: an AF_INET or AF_INET6 address the list has, or
// AF_UNSPEC, which dissolves a connection and reaches nothing.
func (s *supervisor) allowsAddr(addr []byte) bool {
	if len(addr) < 2 {
		return false
	}
	port := func() uint16 { return binary.BigEndian.Uint16(addr[2:4]) }
	switch binary.NativeEndian.Uint16(addr) {
	case unix.AF_UNSPEC:
		return true
	case unix.AF_INET:
		if len(addr) < unix.SizeofSockaddrInet4 {
			return false
		}
		return s.hosts.allows(netip.AddrPortFrom(netip.AddrFrom4([4]byte(addr[4:8])), port()))
	case unix.AF_INET6:
		if len(addr) < 24 { // the kernel's SIN6_LEN_RFC2133: no scope id
			return false
		}
		return s.hosts.allows(netip.AddrPortFrom(netip.AddrFrom16([16]byte(addr[8:24])), port()))
	}
	return false
}

// openThread returns a pidfd of thread tid, whose file descriptors and
// memory are its process's, and a pid that names them: tid itself on
// Linux 6.9 and later (PIDFD_THREAD), else its process, read from /proc.
func openThread(tid int) (pid, pidfd int, err error) {
	if pidfd, err = unix.PidfdOpen(tid, unix.PIDFD_THREAD); err == nil {
		return tid, pidfd, nil
	}
	if pid, err = threadGroup(tid); err != nil {
		return 0, -1, err
	}
	pidfd, err = unix.PidfdOpen(pid, 0)
	return pid, pidfd, err
}

// threadGroup is the process of thread tid.
func threadGroup(tid int) (int, error) {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(tid) + "/status")
	if err != nil {
		return 0, err
	}
	_, rest, ok := bytes.Cut(status, []byte("\nTgid:"))
	if !ok {
		return 0, fmt.Errorf("/proc/%d/status has no Tgid", tid)
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	return strconv.Atoi(string(bytes.TrimSpace(line)))
}

// ioctl makes the ioctl req on fd with the argument at arg.
func ioctl(fd uintptr, req uint, arg unsafe.Pointer) error {
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, fd, uintptr(req), uintptr(arg)); errno != 0 {
		return errno
	}
	return nil
}

// errnoOf is err's errno, or otherwise.
func errnoOf(err error, otherwise unix.Errno) unix.Errno {
	var errno unix.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return otherwise
}

// hostCheckSupported returns nil when the host can check the address of
// each connect of a mod: the kernel offers seccomp user notification
// (Linux 5.0), pidfd_open (5.3) and pidfd_getfd (5.6), and Yama lets the
// host take its mods' sockets. Else an error saying which is missing.
func hostCheckSupported() error {
	if err := SeccompSupported(); err != nil {
		return err
	}
	action := uint32(unix.SECCOMP_RET_USER_NOTIF)
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&action))); errno != 0 {
		return fmt.Errorf("Linux %s offers no seccomp user notification (it needs Linux 5.0): %w", kernelRelease(), errno)
	}
	pidfd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return fmt.Errorf("Linux %s offers no pidfd_open (it needs Linux 5.3): %w", kernelRelease(), err)
	}
	defer unix.Close(pidfd)
	fd, err := unix.PidfdGetfd(pidfd, pidfd, 0)
	if err != nil {
		return fmt.Errorf("Linux %s offers no pidfd_getfd (it needs Linux 5.6): %w", kernelRelease(), err)
	}
	unix.Close(fd)
	if err := tryListener(); err != nil {
		return err
	}
	scope, err := os.ReadFile("/proc/sys/kernel/yama/ptrace_scope")
	if err != nil {
		return nil // no Yama: a parent may take its child's sockets
	}
	switch string(bytes.TrimSpace(scope)) {
	case "3":
		return errors.New("kernel.yama.ptrace_scope is 3: no process may take a mod's sockets (pidfd_getfd)")
	case "2":
		if !hasCapability(unix.CAP_SYS_PTRACE) {
			return errors.New("kernel.yama.ptrace_scope is 2: the host needs CAP_SYS_PTRACE to take a mod's sockets (pidfd_getfd)")
		}
	}
	return nil
}

// tryListener installs a filter that allows everything and notifies, on
// a throwaway thread: the kernel refuses a second notifying filter
// (EBUSY), which a container runtime that intercepts system calls may
// have installed on the host already.
func tryListener() error {
	allowAll, err := bpf.Assemble([]bpf.Instruction{bpf.RetConstant{Val: allow}})
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	onThrowawayThread(func() {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			done <- err
			return
		}
		fd, err := installFilter(allowAll, true)
		if err == nil {
			unix.Close(fd)
		}
		done <- err
	})
	if err := <-done; err != nil {
		if errors.Is(err, unix.EBUSY) {
			return fmt.Errorf("the host already runs under a seccomp filter that notifies a supervisor (a container runtime's), and Linux allows one: %w", err)
		}
		return fmt.Errorf("Linux %s refuses a seccomp filter that notifies the host: %w", kernelRelease(), err)
	}
	return nil
}

// hasCapability reports whether the calling thread holds capability c
// in its effective set.
func hasCapability(c int) bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) != nil {
		return false
	}
	return data[c/32].Effective&(1<<(c%32)) != 0
}

package sandbox

import (
	"bufio"
	"cmp"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/modkit/modkit/internal/testenv"
)

// connectProbeEnv makes the test binary a connect probe: it runs the
// operation the variable names (see runConnectProbe) and exits.
const connectProbeEnv = "MODKIT_SANDBOX_CONNECT_PROBE"

// runConnectProbe runs one operation, writing "name<TAB>result" lines,
// result "ok" or the errno's name:
//
//   - "dial NET!ADDR ...": dials each address;
//   - "fastopen ADDR": sends with TCP Fast Open, which connects without
//     connect(2);
//   - "race GOOD BAD N": connects N times to GOOD's port while another
//     thread keeps switching the address between GOOD and BAD, and reports
//     the peers it reached ("peer IP" lines, counted);
//   - "bench ADDR N": dials ADDR N times, reporting the median and the
//     least ns per dial;
//   - "fds": the targets of the process's open files.
func runConnectProbe(spec string) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	args := strings.Fields(spec)
	result := func(err error) string {
		if err == nil {
			return "ok"
		}
		if e, ok := err.(*net.OpError); ok {
			err = e.Err
		}
		if se, ok := err.(*os.SyscallError); ok {
			err = se.Err
		}
		if errno, ok := err.(unix.Errno); ok {
			return unix.ErrnoName(errno)
		}
		return err.Error()
	}
	switch args[0] {
	case "dial":
		for _, a := range args[1:] {
			network, addr, _ := strings.Cut(a, "!")
			c, err := net.DialTimeout(network, addr, 10*time.Second)
			if err == nil {
				c.Close()
			}
			fmt.Fprintf(w, "dial %s\t%s\n", a, result(err))
		}
	case "fastopen":
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
		if err == nil {
			err = unix.Sendto(fd, []byte("x"), unix.MSG_FASTOPEN, sockaddr4(args[1]))
			unix.Close(fd)
		}
		fmt.Fprintf(w, "fastopen %s\t%s\n", args[1], result(err))
	case "race":
		n, _ := strconv.Atoi(args[3])
		for peer, count := range race(args[1], args[2], n) {
			fmt.Fprintf(w, "peer %s\t%d\n", peer, count)
		}
	case "bench":
		n, _ := strconv.Atoi(args[2])
		took := make([]time.Duration, 0, n)
		for range n {
			start := time.Now()
			c, err := net.Dial("tcp", args[1])
			if err != nil {
				fmt.Fprintf(w, "bench\t%s\n", result(err))
				return
			}
			took = append(took, time.Since(start))
			c.Close()
		}
		slices.Sort(took)
		fmt.Fprintf(w, "bench\t%d %d\n", took[len(took)/2].Nanoseconds(), took[0].Nanoseconds())
	case "fds":
		entries, _ := os.ReadDir("/proc/self/fd")
		for _, e := range entries {
			target, _ := os.Readlink("/proc/self/fd/" + e.Name())
			fmt.Fprintf(w, "fd %s\t%s\n", e.Name(), target)
		}
	}
}

// sockaddr4 is the IPv4 address addr, "IP:PORT".
func sockaddr4(addr string) *unix.SockaddrInet4 {
	ap := netip.MustParseAddrPort(addr)
	return &unix.SockaddrInet4{Addr: ap.Addr().As4(), Port: int(ap.Port())}
}

// race connects n blocking sockets to good's address, in memory another
// thread keeps switching between good and bad, by raw connect(2) calls,
// and counts the peers reached, "refused" for the rest.
func race(good, bad string, n int) map[string]int {
	g, b := sockaddr4(good), sockaddr4(bad)
	var raw unix.RawSockaddrInet4
	raw.Family = unix.AF_INET
	raw.Port = uint16(g.Port>>8 | (g.Port&0xff)<<8)
	word := (*uint32)(unsafe.Pointer(&raw.Addr))
	goodIP, badIP := *(*uint32)(unsafe.Pointer(&g.Addr)), *(*uint32)(unsafe.Pointer(&b.Addr))
	atomic.StoreUint32(word, goodIP)
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			atomic.StoreUint32(word, badIP)
			atomic.StoreUint32(word, goodIP)
		}
	})
	peers := map[string]int{}
	for range n {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			peers["socket: "+err.Error()]++
			continue
		}
		_, _, errno := unix.Syscall(unix.SYS_CONNECT, uintptr(fd), uintptr(unsafe.Pointer(&raw)), unix.SizeofSockaddrInet4)
		if errno != 0 {
			peers["refused"]++
		} else if sa, err := unix.Getpeername(fd); err == nil {
			ip := sa.(*unix.SockaddrInet4).Addr
			peers[net.IP(ip[:]).String()]++
		}
		unix.Close(fd)
	}
	stop.Store(true)
	wg.Wait()
	return peers
}

// connectPolicy is the policy of a process that may connect to the
// addresses given, its connects checked by the host.
func connectPolicy(t testing.TB, connect ...string) *Policy {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &Policy{Connect: connect, CheckHosts: true, Exec: []string{self}, Write: []string{os.DevNull},
		Read:     []string{"/etc/hosts", "/etc/nsswitch.conf", "/etc/resolv.conf", "/etc/host.conf", "/etc/gai.conf", "/proc"},
		ReadExec: []string{"/lib", "/lib64", "/usr/lib", "/usr/lib64", "/etc/ld.so.cache"},
		ABI:      min(ABI(), LatestABI), Seccomp: true}
	for _, c := range connect {
		_, port, _ := net.SplitHostPort(c)
		n, _ := strconv.ParseUint(port, 10, 16)
		p.ConnectPorts = append(p.ConnectPorts, uint16(n))
	}
	return p
}

// startConnectProbe starts the test binary as a connect probe running op,
// confined by p. wait waits for it and returns its results by name; it
// closes exited after.
func startConnectProbe(t testing.TB, p *Policy, op string) (cmd *exec.Cmd, wait func() map[string]string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(self)
	cmd.Env = append(os.Environ(), connectProbeEnv+"="+op)
	var out, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &stderr
	exited := make(chan struct{})
	if p == nil {
		err = cmd.Start()
	} else {
		err = Start(p, cmd.Start, exited)
	}
	if err != nil {
		t.Fatalf("connect probe: %v", err)
	}
	return cmd, func() map[string]string {
		t.Helper()
		err := cmd.Wait()
		close(exited)
		if err != nil {
			t.Fatalf("connect probe %q: %v\n%s", op, err, stderr.String())
		}
		results := map[string]string{}
		for _, line := range strings.Split(out.String(), "\n") {
			if name, result, ok := strings.Cut(line, "\t"); ok {
				results[name] = result
			}
		}
		return results
	}
}

// requireHostCheck skips a test where the host cannot check connects.
func requireHostCheck(t testing.TB) {
	t.Helper()
	e, err := Current()
	if err != nil {
		t.Fatal(err)
	}
	if e.Seccomp != nil || e.HostCheck != nil {
		t.Skipf("the host cannot check the host of a connect here: %v", cmp.Or(e.Seccomp, e.HostCheck))
	}
}

// twoHosts listens on one port of 127.0.0.1 and of 127.0.0.2, accepting
// and counting connections, and returns the port and the counts.
func twoHosts(t testing.TB) (port string, accepted map[string]*atomic.Int64) {
	t.Helper()
	for range 20 {
		a, err := net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		_, port, _ = net.SplitHostPort(a.Addr().String())
		b, err := net.Listen("tcp4", "127.0.0.2:"+port)
		if err != nil {
			a.Close()
			continue // the port is taken on 127.0.0.2
		}
		accepted = map[string]*atomic.Int64{"127.0.0.1": {}, "127.0.0.2": {}}
		for host, l := range map[string]net.Listener{"127.0.0.1": a, "127.0.0.2": b} {
			t.Cleanup(func() { l.Close() })
			go func() {
				for {
					c, err := l.Accept()
					if err != nil {
						return
					}
					accepted[host].Add(1)
					c.Close()
				}
			}()
		}
		return port, accepted
	}
	t.Fatal("no port free on both 127.0.0.1 and 127.0.0.2")
	return "", nil
}

// waitSupervisors fails t unless every supervisor and its answers end.
func waitSupervisors(t *testing.T) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		supervisors.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("a connect supervisor still runs a minute after its process exited")
	}
}

// TestConnectByHost confines a process that declares 127.0.0.1:PORT and
// localhost:PORT2: it reaches those, by address and by name, and not the
// same ports of 127.0.0.2, which Landlock's port rule alone would let
// through; no unix socket made outside it, no TCP Fast Open; UDP goes
// anywhere (DNS). The filter's notification fd does not reach the
// process, and the supervisor stops when it exits.
func TestConnectByHost(t *testing.T) {
	requireHostCheck(t)
	port, accepted := twoHosts(t)
	port2, _ := twoHosts(t)
	dir := t.TempDir()
	unixPath := dir + "/s.sock"
	ln, err := net.Listen("unix", unixPath)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()

	p := connectPolicy(t, "127.0.0.1:"+port, "localhost:"+port2)
	want := map[string]string{
		"dial tcp!127.0.0.1:" + port:  "ok",
		"dial tcp!127.0.0.2:" + port:  "EACCES",
		"dial tcp!127.0.0.1:" + port2: "ok", // localhost
		"dial tcp!localhost:" + port2: "ok",
		"dial tcp!127.0.0.2:" + port2: "EACCES",
		"dial tcp!127.0.0.1:1":        "EACCES", // Landlock and the host refuse the port
		"dial unix!" + unixPath:       "EACCES",
		"dial udp!127.0.0.2:53":       "ok",
	}
	var op []string
	for name := range want {
		op = append(op, strings.TrimPrefix(name, "dial "))
	}
	_, wait := startConnectProbe(t, p, "dial "+strings.Join(op, " "))
	got := wait()
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: got %q, want %s", name, got[name], w)
		}
	}
	if n := accepted["127.0.0.2"].Load(); n != 0 {
		t.Errorf("127.0.0.2:%s accepted %d connections, want 0", port, n)
	}

	// Where the host cannot check, Landlock's rule by port holds alone,
	// as the report's row says: the other host's port is in reach.
	byPort := connectPolicy(t, "127.0.0.1:"+port)
	byPort.CheckHosts = false
	_, wait = startConnectProbe(t, byPort, "dial tcp!127.0.0.2:"+port+" tcp!127.0.0.2:"+port2)
	got = wait()
	if got["dial tcp!127.0.0.2:"+port] != "ok" || got["dial tcp!127.0.0.2:"+port2] != "EACCES" {
		t.Errorf("Landlock alone: got %v, want 127.0.0.2:%s reached (by port) and 127.0.0.2:%s refused", got, port, port2)
	}

	// Landlock's port rule stays a layer under the host's check: the host
	// connects on a thread it restricts (TestConnectRace's blocking
	// sockets on one of their own each).
	if p.ABI >= 4 {
		layered := connectPolicy(t, "127.0.0.1:"+port)
		layered.ConnectPorts = nil
		_, wait = startConnectProbe(t, layered, "dial tcp!127.0.0.1:"+port)
		if got := wait()["dial tcp!127.0.0.1:"+port]; got != "EACCES" {
			t.Errorf("a declared address whose port Landlock's rule lacks: got %s, want EACCES", got)
		}
	}

	_, wait = startConnectProbe(t, p, "fastopen 127.0.0.2:"+port)
	if got := wait()["fastopen 127.0.0.2:"+port]; got != "EACCES" {
		t.Errorf("TCP Fast Open to 127.0.0.2:%s: got %s, want EACCES", port, got)
	}

	_, wait = startConnectProbe(t, p, "fds")
	fds := wait()
	if fds["fd 1"] == "" {
		t.Errorf("the confined process's open files: got %v, want its stdout among them", fds)
	}
	for name, target := range fds {
		if strings.Contains(target, "seccomp") {
			t.Errorf("the confined process holds %s: %s, the filter's notification fd", name, target)
		}
	}
	waitSupervisors(t)
}

// TestConnectRace has a thread of the confined process switch the address
// of its connects between the declared host and another while another
// thread connects: the host connects on its own copy of the address, so
// no connection reaches the other host, which a supervisor that let the
// call continue (SECCOMP_USER_NOTIF_FLAG_CONTINUE) would let through when
// the switch comes between its check and the kernel's reading.
func TestConnectRace(t *testing.T) {
	requireHostCheck(t)
	port, accepted := twoHosts(t)
	p := connectPolicy(t, "127.0.0.1:"+port)
	_, wait := startConnectProbe(t, p, fmt.Sprintf("race 127.0.0.1:%s 127.0.0.2:%s 2000", port, port))
	got := wait()
	if got["peer 127.0.0.2"] != "" || accepted["127.0.0.2"].Load() != 0 {
		t.Errorf("racing connects reached 127.0.0.2 (%s, %d accepted), want none: %v", got["peer 127.0.0.2"], accepted["127.0.0.2"].Load(), got)
	}
	if got["peer 127.0.0.1"] == "" {
		t.Errorf("no racing connect reached 127.0.0.1, want some: %v", got)
	}
	waitSupervisors(t)
}

// TestConnectPendingAtExit kills the confined process while the host
// holds its connect: the supervisor answers a process that is gone, and
// stops.
func TestConnectPendingAtExit(t *testing.T) {
	requireHostCheck(t)
	port, _ := twoHosts(t)
	pending, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	beforeConnect = func() {
		once.Do(func() { close(pending) })
		<-release
	}
	defer func() { beforeConnect = nil }()
	p := connectPolicy(t, "127.0.0.1:"+port)
	exited := make(chan struct{})
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), connectProbeEnv+"=dial tcp!127.0.0.1:"+port)
	if err := Start(p, cmd.Start, exited); err != nil {
		t.Fatal(err)
	}
	<-pending
	cmd.Process.Kill()
	cmd.Wait()
	close(exited)
	close(release)
	waitSupervisors(t)
}

// BenchmarkConnect measures a dial from a confined process, its connect
// checked by the host or by Landlock's port rule alone, and from an
// unconfined one: ns/dial is the median dial inside the process, and
// min-ns/dial the fastest, which a busy machine disturbs least (ns/op adds
// the process's start).
func BenchmarkConnect(b *testing.B) {
	addr := listen(b, "tcp4", "127.0.0.1:0").Addr().String()
	for _, c := range []struct {
		name   string
		policy func() *Policy
	}{
		{"unconfined", func() *Policy { return nil }},
		{"landlock-port", func() *Policy { p := connectPolicy(b, addr); p.CheckHosts = false; return p }},
		{"host-checked", func() *Policy { return connectPolicy(b, addr) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			if c.name == "host-checked" {
				requireHostCheck(b)
			}
			_, wait := startConnectProbe(b, c.policy(), fmt.Sprintf("bench %s %d", addr, b.N))
			got := wait()["bench"]
			var median, least float64
			if _, err := fmt.Sscan(got, &median, &least); err != nil {
				b.Fatalf("bench: got %q, want the median and least ns per dial", got)
			}
			b.ReportMetric(median, "ns/dial")
			b.ReportMetric(least, "min-ns/dial")
		})
	}
}

// TestConnectUnprivileged runs the tests of connect by host again as
// nobody (uid 65534): an unprivileged host takes its mods' sockets too.
func TestConnectUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("this run is unprivileged: the tests of connect by host are the unprivileged case")
	}
	requireHostCheck(t)
	out := testenv.RunAsNobody(t, t.TempDir(), "", "(TestConnectByHost|TestConnectRace|TestConnectPendingAtExit)")
	for _, name := range []string{"TestConnectByHost", "TestConnectRace", "TestConnectPendingAtExit"} {
		if !strings.Contains(out, "--- PASS: "+name+" ") {
			t.Errorf("%s as uid 65534: got\n%s\nwant it passed", name, out)
		}
	}
}

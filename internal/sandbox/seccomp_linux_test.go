package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/modkit/modkit/internal/sandbox/probe"
	"github.com/modkit/modkit/internal/testenv"
)

// probeEnv makes the test binary a probe: it tries every attempt of
// package probe, connects to the unix socket the variable names, reports
// its capabilities, each on a line, and exits.
const probeEnv = "MODKIT_SANDBOX_PROBE"

// probeTCPEnv, "ADDR ADDR", has the probe dial both TCP addresses, the
// first also with Multipath TCP.
const probeTCPEnv = "MODKIT_SANDBOX_PROBE_TCP"

func TestMain(m *testing.M) {
	if path := os.Getenv(probeEnv); path != "" {
		runProbe(os.Stdout, path)
		os.Exit(0)
	}
	if op := os.Getenv(connectProbeEnv); op != "" {
		runConnectProbe(op)
		os.Exit(0)
	}
	if os.Getenv(throwawayEnv) != "" {
		runThrowawayProbe()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runProbe writes "name<TAB>result" lines: "ok" or the errno's name.
func runProbe(w io.Writer, unixPath string) {
	result := func(err error) string {
		var errno unix.Errno
		if errors.As(err, &errno) {
			return unix.ErrnoName(errno)
		}
		if err != nil {
			return err.Error()
		}
		return "ok"
	}
	var all []probe.Attempt
	all = append(append(append(all, probe.Refused()...), probe.Allowed()...), probe.Sockets()...)
	for _, a := range all {
		fmt.Fprintf(w, "%s\t%s\n", a.Name, result(a.Try()))
	}
	_, _, errno := unix.Syscall(unix.SYS_CLONE3, 0, 0, 0)
	fmt.Fprintf(w, "clone3(NULL)\t%s\n", result(errnoOrNil(errno)))
	c, err := net.Dial("unix", unixPath)
	if err == nil {
		c.Close()
	}
	fmt.Fprintf(w, "connect(unix socket made outside)\t%s\n", result(err))
	if addrs := strings.Fields(os.Getenv(probeTCPEnv)); len(addrs) == 2 {
		dial := func(name, addr string, mptcp bool) {
			d := net.Dialer{}
			d.SetMultipathTCP(mptcp)
			c, err := d.Dial("tcp", addr)
			if err == nil {
				c.Close()
			}
			fmt.Fprintf(w, "%s\t%s\n", name, result(err))
		}
		dial("dial declared port", addrs[0], false)
		dial("dial declared port with MPTCP", addrs[0], true)
		dial("dial other port", addrs[1], false)
	}
	for name, value := range probe.Capabilities() {
		fmt.Fprintf(w, "%s\t%#x\n", name, value)
	}
}

func errnoOrNil(errno unix.Errno) error {
	if errno == 0 {
		return nil
	}
	return errno
}

// runProbeProcess runs the test binary as a probe, confined by p, with
// the filter and the kernel's Landlock, unless p is nil, and returns its
// results by name.
func runProbeProcess(t *testing.T, p *Policy, unixPath string, env ...string) map[string]string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(append(os.Environ(), probeEnv+"="+unixPath), env...)
	var out, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if p == nil {
		err = cmd.Run()
	} else {
		p.Exec, p.Write = []string{self}, []string{os.DevNull}
		p.ABI, p.Seccomp = min(ABI(), LatestABI), true
		p.ReadExec = []string{"/lib", "/lib64", "/usr/lib", "/usr/lib64", "/etc/ld.so.cache"}
		exited := make(chan struct{})
		if err = Start(p, cmd.Start, exited); err == nil {
			err = cmd.Wait()
			close(exited)
		}
	}
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, stderr.String())
	}
	results := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		name, result, _ := strings.Cut(sc.Text(), "\t")
		results[name] = result
	}
	return results
}

// TestSeccompProbe runs every attempt of package probe in a process
// confined at each Internet rule, and once unconfined: each refused call
// reads EPERM (clone3 ENOSYS), each refused socket EACCES, where the
// unconfined process met no permission error; what the rule allows goes
// as it goes unconfined; the process keeps no capability.
func TestSeccompProbe(t *testing.T) {
	if err := Check(); err != nil {
		t.Skip(err)
	}
	if err := SeccompSupported(); err != nil {
		t.Fatalf("a kernel with Landlock ABI %d lacks seccomp: %v", RequiredABI, err)
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	unixPath := filepath.Join(dir, "outside.sock")
	listen(t, "unix", unixPath)
	t.Logf("the host's uid: %d", os.Geteuid())
	free := runProbeProcess(t, nil, unixPath)
	permission := func(r string) bool { return r == "EPERM" || r == "EACCES" }

	// allowedSockets are the sockets each rule lets a process open.
	unixOnly := []string{"socket(AF_UNIX, SOCK_STREAM)", "socketpair(AF_UNIX, SOCK_STREAM)"}
	tcp := append(append([]string(nil), unixOnly...), "socket(AF_INET, SOCK_STREAM)", "socket(AF_INET6, SOCK_STREAM, IPPROTO_TCP)",
		"socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)")
	tcpUDP := append(append([]string(nil), tcp...), "socket(AF_INET, SOCK_DGRAM)", "socket(AF_INET6, SOCK_DGRAM, IPPROTO_UDP)")
	for _, rule := range []struct {
		name    string
		rule    Internet
		allowed []string
		connect bool
	}{
		{"none", InternetNone, unixOnly, false},
		{"tcp", InternetTCP, tcp, true},
		{"tcp+udp", InternetTCPUDP, tcpUDP, true},
	} {
		t.Run(rule.name, func(t *testing.T) {
			got := runProbeProcess(t, &Policy{Internet: rule.rule}, unixPath)
			check := func(name, want string) {
				t.Helper()
				if free[name] == want {
					t.Logf("%s: %s unconfined too: this machine cannot tell the filter's refusal", name, want)
				}
				if got[name] != want {
					t.Errorf("%s: got %s, want %s (unconfined: %s)", name, got[name], want, free[name])
				}
			}
			for _, a := range probe.Refused() {
				check(a.Name, "EPERM")
			}
			check("clone3(NULL)", "ENOSYS")
			for _, a := range probe.Allowed() {
				if got[a.Name] != "ok" {
					t.Errorf("%s: got %s, want ok", a.Name, got[a.Name])
				}
			}
			for _, a := range probe.Sockets() {
				if slicesContains(rule.allowed, a.Name) {
					if got[a.Name] != free[a.Name] || permission(got[a.Name]) {
						t.Errorf("%s: got %s, want %s as unconfined", a.Name, got[a.Name], free[a.Name])
					}
				} else {
					check(a.Name, "EACCES")
				}
			}
			if rule.connect {
				if got["connect(unix socket made outside)"] != "ok" {
					t.Errorf("connect(unix socket made outside): got %s, want ok", got["connect(unix socket made outside)"])
				}
			} else {
				check("connect(unix socket made outside)", "EACCES")
			}
			for _, set := range []string{"CapEff", "CapPrm", "CapInh", "CapAmb"} {
				if got[set] != "0x0" {
					t.Errorf("%s: got %s, want 0x0 (unconfined: %s)", set, got[set], free[set])
				}
			}
			if hasSetPCap() && got["CapBnd"] != "0x0" {
				t.Errorf("CapBnd of a root host's process: got %s, want 0x0 (unconfined: %s)", got["CapBnd"], free["CapBnd"])
			}
		})
	}
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// hasSetPCap reports whether the test may empty the bounding set.
func hasSetPCap() bool {
	return probe.Capabilities()["CapEff"]&(1<<unix.CAP_SETPCAP) != 0
}

// TestDeclaredPort checks that the filter leaves a mod the TCP port it
// declares, which Landlock filters: a plain dial and a Multipath TCP one
// (refused, then plain TCP as Go falls back) reach it; another port does
// not.
func TestDeclaredPort(t *testing.T) {
	if err := Check(); err != nil {
		t.Skip(err)
	}
	var addrs []string
	var port uint16
	for range 2 {
		ln := listen(t, "tcp", "127.0.0.1:0")
		addrs = append(addrs, ln.Addr().String())
		port = uint16(ln.Addr().(*net.TCPAddr).Port)
	}
	addrs[0], addrs[1] = addrs[1], addrs[0] // the declared port first
	got := runProbeProcess(t, &Policy{ConnectPorts: []uint16{port}}, "/nonexistent", probeTCPEnv+"="+strings.Join(addrs, " "))
	for name, want := range map[string]string{"dial declared port": "ok", "dial declared port with MPTCP": "ok", "dial other port": "EACCES"} {
		if got[name] != want {
			t.Errorf("%s: got %s, want %s", name, got[name], want)
		}
	}
}

// TestSeccompProbeUnprivileged runs TestSeccompProbe again as nobody
// (uid 65534), in a copy of the test binary any user may run: an
// unprivileged host confines its mods alike.
func TestSeccompProbeUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("this run is unprivileged: TestSeccompProbe is the unprivileged case")
	}
	if err := Check(); err != nil {
		t.Skip(err)
	}
	out := testenv.RunAsNobody(t, t.TempDir(), "", "^TestSeccompProbe$")
	if !strings.Contains(out, "the host's uid: 65534") || !strings.Contains(out, "--- PASS: TestSeccompProbe") {
		t.Errorf("TestSeccompProbe as uid 65534: got\n%s\nwant it passed", out)
	}
}

// listen listens on addr, accepting and closing connections, until the
// test ends.
func listen(t testing.TB, network, addr string) net.Listener {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln
}

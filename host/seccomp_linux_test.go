package host_test

import (
	"cmp"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/internal/sandbox/probe"
	"github.com/modkit/modkit/internal/testenv"
	"github.com/modkit/modkit/internal/testserver"
	"github.com/modkit/modkit/sdk"
)

// TestConfinementHoles has the hostile mod, which declares nothing, try
// what Landlock alone let through (Multipath TCP, UDP, unix sockets made
// outside the mod, raw and netlink sockets, a root host's capabilities)
// and each system call the seccomp filter refuses: each fails with the
// host's "Permission denied" sentence, and the same process answers the
// next call. The permitted mod, which declares network access, keeps TCP,
// UDP and netlink route sockets, and is refused the rest alike.
//
// It runs with Landlock capped at ABI 0 (MODKIT_LANDLOCK_MAX_ABI), where
// the filter and the empty capability set confine alone, and uncapped.
//
// Run as root, it checks that a root host's mods keep no capability;
// TestConfinementHolesUnprivileged runs it again with the host as nobody.
func TestConfinementHoles(t *testing.T) {
	// Not parallel: it sets MODKIT_LANDLOCK_MAX_ABI.
	requireLandlock(t)
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	go testserver.AcceptAll(tcp)
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	dir := t.TempDir()
	unixPath, unixgramPath := filepath.Join(dir, "stream.sock"), filepath.Join(dir, "dgram.sock")
	ln, err := net.Listen("unix", unixPath)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go testserver.AcceptAll(ln)
	gram, err := net.ListenPacket("unixgram", unixgramPath)
	if err != nil {
		t.Fatal(err)
	}
	defer gram.Close()

	for _, abi := range []string{"0", ""} {
		t.Run("ABI"+cmp.Or(abi, "latest"), func(t *testing.T) {
			t.Setenv(sandbox.MaxABIEnv, abi)
			tryHoles(t, tcp.Addr().String(), udp.LocalAddr().String(), unixPath, unixgramPath)
		})
	}
}

// TestConfinementHolesUnprivileged runs TestConfinementHoles and
// TestConfinementAtEveryABI again with the host as the nobody user, from a
// prebuilt cache every user reads, when the test runs as root: an
// unprivileged host confines its mods alike.
func TestConfinementHolesUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("this run is unprivileged: TestConfinementHoles is the unprivileged case")
	}
	requireLandlock(t)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{hostileDir, permittedDir} {
		if closed := closedToOthers(filepath.Join(wd, d)); closed != "" {
			t.Skipf("%s is closed to other users, so a host run as nobody could not read the mod %s", closed, d)
		}
	}
	dir := t.TempDir()
	cache := prebuiltCache(t, hostileDir, permittedDir)
	if err := filepath.WalkDir(cache, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o444)
		switch {
		case d.IsDir():
			mode = 0o755
		case filepath.Base(filepath.Dir(path)) == "bin":
			mode = 0o555
		}
		return os.Chmod(path, mode)
	}); err != nil {
		t.Fatal(err)
	}
	testenv.OpenToOthers(cache)
	out := testenv.RunAsNobody(t, dir, wd, "^(TestConfinementHoles|TestConfinementAtEveryABI)$", prebuiltEnv+"="+cache)
	for _, want := range []string{"--- PASS: TestConfinementHoles/ABIlatest", "not root:", "--- PASS: TestConfinementAtEveryABI/ABI1"} {
		if !strings.Contains(out, want) {
			t.Errorf("TestConfinementHoles and TestConfinementAtEveryABI as nobody: got\n%s\nwant %q: they passed unprivileged", out, want)
		}
	}
}

// closedToOthers returns the first directory from dir up to / that
// another user cannot enter (or, dir itself, list), or "".
func closedToOthers(dir string) string {
	need := os.FileMode(0o005)
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm()&need != need {
			return d
		}
		if d == "/" {
			return ""
		}
		need = 0o001
	}
}

// tryHoles is TestConfinementHoles with a host confining as this
// machine's enforcement report says.
func tryHoles(t *testing.T, tcpAddr, udpAddr, unixPath, unixgramPath string) {
	h := load(t, nil, hostileDir, permittedDir)
	try := attempter(t, h, sdk.Session{ID: "s", Workspace: t.TempDir()})
	self := func(mod string) string {
		t.Helper()
		res := try(mod, "self", "")
		if res.Status != host.StatusCompleted {
			t.Fatalf("%s_self: got %s %q, want completed", mod, res.Status, res.Text)
		}
		return res.Text
	}
	pidOf := func(selfText string) string { return strings.Fields(selfText)[1] }
	first := map[string]string{"hostile": pidOf(self("hostile")), "permitted": pidOf(self("permitted"))}

	type attempt struct {
		op, target string
		// denied is what the model reads when the hostile mod tries it;
		// permitted, whether the permitted mod may.
		denied    string
		permitted bool
	}
	attempts := []attempt{
		{"socket", "mptcp-dial " + tcpAddr, "may not connect to " + tcpAddr + " (it declares no network access)", true},
		{"socket", "listen", "may not accept network connections", true},
		{"socket", "udp " + udpAddr, "may not connect to " + udpAddr + " (it declares no network access)", true},
		{"socket", "unix " + unixPath, "may not connect to sockets outside its own process", true},
		{"socket", "unixgram " + unixgramPath, "may not connect to sockets outside its own process", false},
		{"syscall", "socket(AF_INET, SOCK_RAW, IPPROTO_ICMP)", "may not open a socket of this kind", false},
		{"syscall", "socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)", "may not open a socket of this kind", true},
		{"syscall", "socket(AF_NETLINK, SOCK_RAW, NETLINK_SOCK_DIAG)", "may not open a socket of this kind", false},
		{"syscall", "socket(AF_PACKET, SOCK_RAW)", "may not open a socket of this kind", false},
		{"syscall", "socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP)", "may not open a socket of this kind", false},
	}
	for _, a := range probe.Refused() {
		denied := "may not use the system call " + strings.SplitN(a.Name, "(", 2)[0]
		if strings.Contains(a.Name, "kill") {
			denied = "may not signal other processes"
		}
		attempts = append(attempts, attempt{"syscall", a.Name, denied, false})
	}
	for _, a := range attempts {
		res := try("hostile", a.op, a.target)
		if res.Status != host.StatusFailed || !strings.Contains(res.Text, "Permission denied: the hostile mod "+a.denied) {
			t.Errorf("hostile %s %s: got %s %q, want failed with %q", a.op, a.target, res.Status, res.Text, a.denied)
		}
		res = try("permitted", a.op, a.target)
		if got := res.Status == host.StatusCompleted; got != a.permitted ||
			!a.permitted && !strings.Contains(res.Text, "Permission denied: the permitted mod may not") {
			t.Errorf("permitted %s %s: got %s %q (%s), want allowed %v", a.op, a.target, res.Status, res.Text, res.Error, a.permitted)
		}
		for mod, pid := range first {
			if got := pidOf(self(mod)); got != pid {
				t.Fatalf("after %s %s: the %s mod's process is %s, want %s still", a.op, a.target, mod, got, pid)
			}
		}
	}

	// No capability, as the mod sees itself and as the kernel reports it.
	root := os.Geteuid() == 0
	for mod, pid := range first {
		text := self(mod)
		for _, set := range []string{"CapEff", "CapPrm", "CapInh", "CapAmb"} {
			if !strings.Contains(text, set+"=0x0") {
				t.Errorf("%s mod: got %q, want %s=0x0", mod, text, set)
			}
		}
		status, err := os.ReadFile("/proc/" + pid + "/status")
		if err != nil {
			t.Fatal(err)
		}
		fields := map[string]string{}
		for _, line := range strings.Split(string(status), "\n") {
			k, v, _ := strings.Cut(line, ":")
			fields[k] = strings.TrimSpace(v)
		}
		want := map[string]string{"CapEff": "0000000000000000", "CapPrm": "0000000000000000", "CapInh": "0000000000000000",
			"CapAmb": "0000000000000000", "NoNewPrivs": "1", "Seccomp": "2"}
		if root {
			want["CapBnd"] = "0000000000000000"
		}
		for k, v := range want {
			if fields[k] != v {
				t.Errorf("%s mod's /proc/%s/status: got %s: %s, want %s", mod, pid, k, fields[k], v)
			}
		}
	}
	if !root {
		t.Log("not root: the bounding set of the mods is left as it is (an unprivileged host may not empty it)")
	}
}

// connectHostDir declares 127.0.0.1:47613 and localhost:47614.
const connectHostDir = "testdata/mods/connecthost"

// TestConfinementConnectByHost has a mod that declares 127.0.0.1:47613 and
// localhost:47614 connect to those, by IP and by name, and to the same
// ports of 127.0.0.2, which Landlock's rule by port alone lets through:
// the host, which checks the address of each connect, refuses those with
// its "Permission denied" sentence, and no connection reaches 127.0.0.2.
// It runs uncapped and with Landlock capped at ABI 0
// (MODKIT_LANDLOCK_MAX_ABI), where the host's check holds the port too.
func TestConfinementConnectByHost(t *testing.T) {
	// Not parallel: it sets MODKIT_LANDLOCK_MAX_ABI.
	requireLandlock(t) // a machine that keeps every promise checks the host
	var reached2 atomic.Int64
	for _, addr := range []string{"127.0.0.1:47613", "127.0.0.2:47613", "127.0.0.1:47614", "127.0.0.2:47614"} {
		ln, err := net.Listen("tcp4", addr)
		if err != nil {
			t.Skipf("the test mod's declared ports must be free: %v", err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				if strings.HasPrefix(addr, "127.0.0.2:") {
					reached2.Add(1)
				}
				c.Close()
			}
		}()
	}
	for _, abi := range []string{"", "0"} {
		t.Run("ABI"+cmp.Or(abi, "latest"), func(t *testing.T) {
			t.Setenv(sandbox.MaxABIEnv, abi)
			tryConnects(t)
		})
	}
	if n := reached2.Load(); n != 0 {
		t.Errorf("127.0.0.2 accepted %d connections from the mod, want none", n)
	}
}

// tryConnects is TestConfinementConnectByHost with a host confining as
// this machine's enforcement report says.
func tryConnects(t *testing.T) {
	h := load(t, nil, connectHostDir)
	try := attempter(t, h, sdk.Session{ID: "s", Workspace: t.TempDir()})
	const declared = " (it may connect only to 127.0.0.1:47613, localhost:47614)"
	for _, a := range []struct {
		target, denied string // denied is "" when the connect goes through
	}{
		{"127.0.0.1:47613", ""},
		{"localhost:47614", ""},
		{"127.0.0.1:47614", ""}, // localhost's address
		{"127.0.0.2:47613", "may not connect to 127.0.0.2:47613" + declared},
		{"127.0.0.2:47614", "may not connect to 127.0.0.2:47614" + declared},
		{"127.0.0.1:47615", "may not connect to 127.0.0.1:47615" + declared},
	} {
		res := try("connecthost", "connect", a.target)
		switch {
		case a.denied == "" && res.Status != host.StatusCompleted:
			t.Errorf("connect %s: got %s %q (%s), want completed", a.target, res.Status, res.Text, res.Error)
		case a.denied != "" && (res.Status != host.StatusFailed || !strings.Contains(res.Text, "Permission denied: the connecthost mod "+a.denied)):
			t.Errorf("connect %s: got %s %q, want failed with %q", a.target, res.Status, res.Text, a.denied)
		}
	}
}

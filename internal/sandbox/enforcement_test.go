package sandbox

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

func TestMaxABIKnob(t *testing.T) {
	for _, bad := range []string{"x", "-1", "4.5", " "} {
		t.Setenv(MaxABIEnv, bad)
		if _, err := Current(); err == nil || !strings.Contains(err.Error(), MaxABIEnv) {
			t.Errorf("%s=%q: got %v, want an error naming the variable", MaxABIEnv, bad, err)
		}
	}
	t.Setenv(MaxABIEnv, "0")
	e, err := Current()
	if err != nil {
		t.Fatal(err)
	}
	seccomp := e.Seccomp == nil
	if e.ABI != 0 || e.Confines() != seccomp || e.Full() || e.Gaps() == nil {
		t.Errorf("capped at 0: got ABI %d, confines %v, full %v, gaps %v; want ABI 0, confines %v (seccomp), not full, gaps", e.ABI, e.Confines(), e.Full(), e.Gaps(), seccomp)
	}
	if len(e.Rows) != len(Promises) {
		t.Fatalf("got %d rows, want one per promise, %d", len(e.Rows), len(Promises))
	}
	for _, r := range e.Rows {
		want := "not enforced: "
		switch {
		case r.ABI == 0 && seccomp:
			if !r.Enforced || !strings.HasPrefix(r.Status, "enforced") {
				t.Errorf("row %q: got %v %q, want enforced by seccomp or the dropped capabilities", r.Name, r.Enforced, r.Status)
			}
			continue
		case r.ABI == 0:
			want += e.Seccomp.Error()
		case runtime.GOOS != "linux":
			want += "no Landlock on this OS"
		case e.KernelABI > 0:
			want += MaxABIEnv + " caps Landlock at ABI 0"
		default:
			want += "Linux "
		}
		if r.Enforced || !strings.HasPrefix(r.Status, want) {
			t.Errorf("row %q: got %v %q, want %q…", r.Name, r.Enforced, r.Status, want)
		}
	}
}

func TestDisable(t *testing.T) {
	Disable(true)
	defer Disable(false)
	e, err := Current()
	if err != nil {
		t.Fatal(err)
	}
	if e.Confines() || !strings.Contains(e.Gaps().Error(), "disabled") {
		t.Errorf("got confines %v, gaps %v; want no confinement, saying it is disabled", e.Confines(), e.Gaps())
	}
}

func TestReportable(t *testing.T) {
	for _, c := range []struct {
		p    Policy
		want bool
	}{
		{Policy{ABI: 0}, false},
		{Policy{ABI: 0, Seccomp: true}, true},
		{Policy{ABI: 4, Read: []string{"/"}, Seccomp: true}, true},
		{Policy{ABI: 1, Read: []string{"/tmp"}}, true},
		{Policy{ABI: 4, Read: []string{"/"}}, false},
		{Policy{ABI: 5, Write: []string{"//"}}, false},
		{Policy{ABI: 6, Read: []string{"/"}}, true},
	} {
		if got := c.p.Reportable(); got != c.want {
			t.Errorf("%+v: got %v, want %v", c.p, got, c.want)
		}
	}
}

// TestSeccompRefused reports a kernel that refuses the seccomp filter as
// one without Landlock is reported: the rows the filter keeps say not
// enforced, naming why, and so do Gaps and Summary; Landlock still
// confines, and the capabilities are still dropped. Without either layer
// nothing confines.
func TestSeccompRefused(t *testing.T) {
	refused := errors.New("Linux 6.1.0 offers no seccomp: invalid argument")
	e := &Enforcement{OS: "linux", Kernel: "6.1.0", KernelABI: 3, ABI: 3, Seccomp: refused}
	e.fillRows()
	if !e.Confines() || e.Full() {
		t.Fatalf("got confines %v, full %v; want confining with Landlock, not full", e.Confines(), e.Full())
	}
	for _, r := range e.Rows {
		var want string
		switch r.Name {
		case NetworkBeyondTCP, PathnameUnixSockets:
			want = "not enforced: " + refused.Error()
		case Capabilities:
			want = "enforced: every capability dropped"
		case TCPConnect, Signals:
			want = "not enforced: Linux 6.1.0 offers Landlock ABI 3 (it needs ABI "
		default:
			continue
		}
		if !strings.HasPrefix(r.Status, want) || strings.Contains(r.Status, "seccomp refuses") {
			t.Errorf("row %q: got %q, want %q… and nothing the filter keeps", r.Name, r.Status, want)
		}
	}
	if gaps := e.Gaps(); gaps == nil || !strings.Contains(gaps.Error(), NetworkBeyondTCP) || !strings.Contains(gaps.Error(), refused.Error()) {
		t.Errorf("Gaps: got %v, want it to name %q and why: %v", gaps, NetworkBeyondTCP, refused)
	}

	e = &Enforcement{OS: "linux", Kernel: "6.1.0", Seccomp: refused}
	e.fillRows()
	if e.Confines() {
		t.Errorf("no Landlock, no seccomp: got confines, want not")
	}
	if r := e.Rows[len(e.Rows)-1]; r.Name != Capabilities || r.Enforced || !strings.HasPrefix(r.Status, "not enforced: nothing confines mods here") {
		t.Errorf("row %q: got %v %q, want not enforced, nothing confining", r.Name, r.Enforced, r.Status)
	}
}

// TestHostCheckRefused checks the report of a kernel that takes the
// seccomp filter but not the host's check of each connect: the row by
// host is not enforced, naming why, and says that Landlock filters by
// port; every other row reads as with the check, and Gaps names the row.
func TestHostCheckRefused(t *testing.T) {
	refused := errors.New("Linux 5.4.0 offers no pidfd_getfd (it needs Linux 5.6): function not implemented")
	e := &Enforcement{OS: "linux", Kernel: "5.4.0", Seccomp: nil, HostCheck: refused}
	e.fillRows()
	checked := &Enforcement{OS: "linux", Kernel: "5.4.0"}
	checked.fillRows()
	for i, r := range e.Rows {
		switch {
		case r.Name == TCPConnectHost:
			want := "not enforced: " + refused.Error() + "; Landlock filters TCP connect by port only"
			if r.Enforced || !strings.HasPrefix(r.Status, want) {
				t.Errorf("row %q: got %v %q, want not enforced, %q…", r.Name, r.Enforced, r.Status, want)
			}
			if c := checked.Rows[i]; !c.Enforced || !strings.HasPrefix(c.Status, "enforced by seccomp user notification") {
				t.Errorf("row %q with the check: got %v %q, want enforced by seccomp user notification", c.Name, c.Enforced, c.Status)
			}
		case r.Name == PathnameUnixSockets:
			if r.Status == checked.Rows[i].Status {
				t.Errorf("row %q: got %q with the check and without, want the host's refusal only with it", r.Name, r.Status)
			}
		case r != checked.Rows[i]:
			t.Errorf("row %q: got %q, want %q as with the check", r.Name, r.Status, checked.Rows[i].Status)
		}
	}
	if gaps := e.Gaps(); gaps == nil || !strings.Contains(gaps.Error(), TCPConnectHost) {
		t.Errorf("Gaps: got %v, want it to name %q", gaps, TCPConnectHost)
	}
}

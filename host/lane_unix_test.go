//go:build unix

package host_test

import (
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
)

// TestModBreakingItsLane checks that a mod writing on its call lane what
// the host never asked for fails its calls and is stopped, naming why, and
// that the next call gets a fresh process, also on a lane.
func TestModBreakingItsLane(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	if !host.CallLane(h.Host, "crashy") {
		t.Fatal("the mod's tool calls do not go over its call lane")
	}
	pid := host.PID(h.Host, "crashy")
	res := call(t, h, "crashy_crash", `{"how":"lane"}`)
	wantStatus(t, res, host.StatusFailed)
	if want := "mod crashy was stopped: it broke the call lane's protocol: a frame (outcome) for call 1152921504606846976, which the host never made"; res.Error != want {
		t.Errorf("got error %q, want %q", res.Error, want)
	}
	waitGone(t, []int{pid})
	res = call(t, h, "crashy_echo", `{"text":"again"}`)
	wantStatus(t, res, host.StatusCompleted)
	if !host.CallLane(h.Host, "crashy") || host.PID(h.Host, "crashy") == pid || !strings.Contains(res.Text, "again") {
		t.Errorf("got pid %d (was %d), lane %v, text %q; want a new process on a lane", host.PID(h.Host, "crashy"), pid, host.CallLane(h.Host, "crashy"), res.Text)
	}
}

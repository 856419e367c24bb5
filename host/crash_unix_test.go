//go:build unix

package host_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
)

func TestKilledModFailsCallNamingIt(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			h := load(t, nil, crashyDir)
			started, done := startCall(h, &host.CallRequest{Tool: "crashy_wait", Session: session(t)})
			<-started
			syscall.Kill(host.PID(h.Host, "crashy"), sig)
			res := await(t, done)
			wantStatus(t, res, host.StatusFailed)
			if want := "mod crashy crashed: signal: " + sig.String(); res.Error != want {
				t.Errorf("got error %q, want %q", res.Error, want)
			}
			wantStatus(t, call(t, h, "crashy_echo", `{"text":"again"}`), host.StatusCompleted)
		})
	}
}

// A mod that answers nothing (a stopped process here) is killed by the
// host's check after a cancelled call, and Close does not wait for it.
func TestUnresponsiveMod(t *testing.T) {
	t.Run("cancelled call", func(t *testing.T) {
		// The host asks for an answer for HandshakeTimeout, which also
		// bounds the fresh mod's start after the kill: 5 s, as a start
		// under -race on a busy machine has taken over 1 s.
		h := load(t, &host.Options{GracePeriod: 100 * time.Millisecond, HandshakeTimeout: 5 * time.Second}, crashyDir)
		ctx, cancel := context.WithCancel(context.Background())
		var pid int
		res, err := h.Call(ctx, &host.CallRequest{Tool: "crashy_wait", Session: session(t),
			OnActivity: func(host.ActivityEvent) {
				pid = host.PID(h.Host, "crashy")
				syscall.Kill(pid, syscall.SIGSTOP)
				cancel()
			}})
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, res, host.StatusCancelled)
		waitGone(t, []int{pid})
		waitForLog(t, h, "mod does not say whether a cancelled handler still runs; killing the mod")
		wantStatus(t, call(t, h, "crashy_echo", `{"text":"fresh"}`), host.StatusCompleted)
	})
	t.Run("close", func(t *testing.T) {
		h := load(t, nil, crashyDir)
		wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
		pid := host.PID(h.Host, "crashy")
		syscall.Kill(pid, syscall.SIGSTOP)
		h.Close()
		if alive(pid) {
			t.Errorf("stopped mod process %d still there after Close", pid)
		}
	})
}

//go:build unix

package host_test

import (
	"syscall"
	"testing"

	"github.com/modkit/modkit/host"
)

func TestKilledModFailsCallNamingIt(t *testing.T) {
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

package mcpbridge

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func TestSessionClock(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var expired []string
		c := newSessionClock(time.Hour, func(id string) {
			mu.Lock()
			defer mu.Unlock()
			expired = append(expired, id)
		})
		got := func() []string {
			synctest.Wait()
			mu.Lock()
			defer mu.Unlock()
			return slices.Clone(expired)
		}
		c.start("streaming")
		c.start("idle")
		c.start("busy")
		stream := c.hold("streaming") // a GET event stream, open for days
		call := c.hold("busy")
		c.hold("unknown")() // not started: nothing to time

		time.Sleep(59 * time.Minute)
		if e := got(); len(e) != 0 {
			t.Fatalf("after 59 minutes: expired %v, want none", e)
		}
		time.Sleep(2 * time.Minute)
		if e := got(); !slices.Equal(e, []string{"idle"}) {
			t.Fatalf("after 61 minutes: expired %v, want [idle]", e)
		}
		call() // the call ends: the hour starts again
		call() // a second release is a no-op
		time.Sleep(50 * time.Minute)
		if e := got(); !slices.Equal(e, []string{"idle"}) {
			t.Fatalf("50 minutes after the call: expired %v, want [idle]", e)
		}
		time.Sleep(20 * time.Minute)
		if e := got(); !slices.Equal(e, []string{"idle", "busy"}) {
			t.Fatalf("70 minutes after the call: expired %v, want [idle busy]", e)
		}
		time.Sleep(48 * time.Hour)
		if e := got(); !slices.Equal(e, []string{"idle", "busy"}) {
			t.Fatalf("two days on: expired %v, want the stream's session still open", e)
		}
		stream()
		c.forget("streaming") // the client ended it
		time.Sleep(2 * time.Hour)
		if e := got(); !slices.Equal(e, []string{"idle", "busy"}) {
			t.Fatalf("after DELETE: expired %v, want [idle busy]", e)
		}
		c.start("late")
		c.stop()
		time.Sleep(2 * time.Hour)
		if e := got(); !slices.Equal(e, []string{"idle", "busy"}) {
			t.Fatalf("after stop: expired %v, want [idle busy]", e)
		}
	})
}

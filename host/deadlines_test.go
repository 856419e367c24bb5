package host

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestDeadlines fires each function at its deadline, in order, whatever
// the order they were added in, and never one removed or added again for
// later.
func TestDeadlines(t *testing.T) {
	// A try whose setup a busy machine held up past the first deadline
	// (10 ms) proves nothing and is made again.
	for try := 0; ; try++ {
		if deadlinesFired(t, try == 19) {
			return
		}
	}
}

// deadlinesFired runs TestDeadlines once and reports whether its setup
// ended in time; when last, it checks the outcome however long it took.
func deadlinesFired(t *testing.T, last bool) bool {
	var ds deadlines
	var mu sync.Mutex
	var fired []string
	all := make(chan struct{})
	start := time.Now()
	firedAt := map[string]time.Duration{}
	entry := func(name string) *deadline {
		return &deadline{i: -1, fire: func() {
			mu.Lock()
			fired = append(fired, name)
			firedAt[name] = time.Since(start)
			if len(fired) == 3 {
				close(all)
			}
			mu.Unlock()
		}}
	}
	late, early, removed, moved := entry("late"), entry("early"), entry("removed"), entry("moved")
	ds.add(late, 150*time.Millisecond)
	ds.add(early, 50*time.Millisecond) // before the armed timer: arms it anew
	ds.add(removed, 20*time.Millisecond)
	ds.add(moved, 10*time.Millisecond)
	ds.remove(removed)
	ds.add(moved, 100*time.Millisecond) // added again: the new deadline only
	if !last && time.Since(start) >= 10*time.Millisecond {
		<-all
		return false
	}
	select {
	case <-all:
	case <-time.After(time.Minute):
	}
	mu.Lock()
	defer mu.Unlock()
	if got, want := fmt.Sprint(fired), "[early moved late]"; got != want {
		t.Fatalf("fired %s, want %s", got, want)
	}
	for name, want := range map[string]time.Duration{"early": 50 * time.Millisecond, "moved": 100 * time.Millisecond, "late": 150 * time.Millisecond} {
		if got := firedAt[name]; got < want {
			t.Errorf("%s fired after %s, want at least %s", name, got, want)
		}
	}
	if len(ds.queue) != 0 || !ds.next.IsZero() {
		t.Errorf("after every deadline: got %d waiting, the timer armed for %v; want none", len(ds.queue), ds.next)
	}
	return true
}

// TestDeadlinesArmOnce wants a deadline after the armed one to leave the
// timer alone, and the timer, once it fired with nothing due, armed for
// the earliest deadline left.
func TestDeadlinesArmOnce(t *testing.T) {
	var ds deadlines
	first := &deadline{i: -1, fire: func() {}}
	ds.add(first, time.Hour)
	armed := ds.next
	for range 10 {
		e := &deadline{i: -1, fire: func() {}}
		ds.add(e, 2*time.Hour)
		if ds.next != armed {
			t.Fatalf("a later deadline moved the timer from %v to %v", armed, ds.next)
		}
		ds.remove(e)
	}
	ds.remove(first)
	second := &deadline{i: -1, fire: func() {}}
	ds.add(second, 3*time.Hour)
	ds.run() // as if the timer fired: nothing is due
	if ds.next != second.at {
		t.Errorf("after a run with nothing due: got the timer armed for %v, want %v", ds.next, second.at)
	}
	ds.remove(second)
	ds.timer.Stop()
}

package deadlines

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
	var ds Queue
	var mu sync.Mutex
	var fired []string
	all := make(chan struct{})
	start := time.Now()
	firedAt := map[string]time.Duration{}
	entry := func(name string) *Entry {
		return &Entry{Fire: func() {
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
	ds.Add(late, 150*time.Millisecond)
	ds.Add(early, 50*time.Millisecond) // before the armed timer: arms it anew
	ds.Add(removed, 20*time.Millisecond)
	ds.Add(moved, 10*time.Millisecond)
	ds.Remove(removed)
	ds.Add(moved, 100*time.Millisecond) // added again: the new deadline only
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
	var ds Queue
	first := &Entry{Fire: func() {}}
	ds.Add(first, time.Hour)
	armed := ds.next
	for range 10 {
		e := &Entry{Fire: func() {}}
		ds.Add(e, 2*time.Hour)
		if ds.next != armed {
			t.Fatalf("a later deadline moved the timer from %v to %v", armed, ds.next)
		}
		ds.Remove(e)
	}
	ds.Remove(first)
	second := &Entry{Fire: func() {}}
	ds.Add(second, 3*time.Hour)
	ds.run() // as if the timer fired: nothing is due
	if ds.next != second.at {
		t.Errorf("after a run with nothing due: got the timer armed for %v, want %v", ds.next, second.at)
	}
	ds.Remove(second)
	ds.timer.Stop()
}

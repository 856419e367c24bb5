// Package deadlines runs functions at their deadlines from one runtime
// timer, armed for the earliest. A timer armed per call (time.AfterFunc)
// made the runtime wake an idle thread at nearly every call to watch it,
// since it fired before any timer the runtime knew: a futex wake, and a
// thread switched in and out again, for a timeout that almost never
// fires; and adding and stopping it costs the runtime's timer heap twice
// a call. Here a deadline after the timer's touches no timer: only the
// first one after an idle spell, or one with a shorter timeout, arms it.
package deadlines

import (
	"container/heap"
	"sync"
	"time"
)

// Queue runs functions at their deadlines. The zero Queue is ready.
type Queue struct {
	mu    sync.Mutex
	queue entries
	timer *time.Timer
	next  time.Time // when timer fires; zero when it is not armed
}

// Entry is one function waiting in a Queue. The zero Entry, with Fire
// set, is ready to add.
type Entry struct {
	// Fire runs at the deadline, on the timer's goroutine, unless Remove
	// took the entry out first.
	Fire func()
	at   time.Time
	i    int // in the queue, plus one; 0 when not there
}

// Add runs e.Fire after d, unless Remove takes e out first; an e waiting
// already waits for the new deadline instead.
func (q *Queue) Add(e *Entry, d time.Duration) {
	at := time.Now().Add(d)
	q.mu.Lock()
	q.take(e)
	e.at = at
	heap.Push(&q.queue, e)
	if q.next.IsZero() || e.at.Before(q.next) {
		q.next = e.at
		if q.timer == nil {
			q.timer = time.AfterFunc(d, q.run)
		} else {
			q.timer.Reset(d)
		}
	}
	q.mu.Unlock()
}

// Remove takes e out, unless it fired or was not added. A Fire already
// taken out to run may still run.
func (q *Queue) Remove(e *Entry) {
	q.mu.Lock()
	q.take(e)
	q.mu.Unlock()
}

// take takes e out of the queue, if it is there.
func (q *Queue) take(e *Entry) {
	if i := e.i - 1; i >= 0 && i < len(q.queue) && q.queue[i] == e {
		heap.Remove(&q.queue, i)
	}
}

// run fires the functions whose deadline has come, and arms the timer for
// the next deadline, if any.
func (q *Queue) run() {
	var due []func()
	q.mu.Lock()
	now := time.Now()
	for len(q.queue) > 0 && !q.queue[0].at.After(now) {
		due = append(due, heap.Pop(&q.queue).(*Entry).Fire)
	}
	q.next = time.Time{}
	if len(q.queue) > 0 {
		q.next = q.queue[0].at
		q.timer.Reset(q.next.Sub(now))
	}
	q.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// entries is a heap of entries, earliest first.
type entries []*Entry

func (q entries) Len() int           { return len(q) }
func (q entries) Less(i, j int) bool { return q[i].at.Before(q[j].at) }
func (q entries) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].i, q[j].i = i+1, j+1
}

func (q *entries) Push(x any) {
	e := x.(*Entry)
	*q = append(*q, e)
	e.i = len(*q)
}

func (q *entries) Pop() any {
	old := *q
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	e.i = 0
	return e
}

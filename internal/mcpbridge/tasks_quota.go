package mcpbridge

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/modkit/modkit/internal/taskstore"
)

// Defaults of the task caps.
const (
	// DefaultTaskMaxLive caps the live tasks (working, or waiting for
	// answers) of one principal: more than a client runs at once, far
	// fewer than would make a replica's memory or mods the client's.
	DefaultTaskMaxLive = 100
	// DefaultTaskMaxBytes caps the bytes one principal's tasks keep
	// (inputs, results, errors and questions): 64 results of the largest
	// size a call returns by default (limits.DefaultResultBytes).
	DefaultTaskMaxBytes = 64 << 20
)

// taskOverhead is what a task counts beyond its inputs and results: its
// record's fields and the store's bookkeeping.
const taskOverhead = 512

// taskQuota caps, per principal (creator; "" without authorization: the
// server's callers together), the tasks created on this replica: at most
// maxLive live ones, and at most maxBytes kept.
//
// A create past the live cap is refused: a live task is a handler at
// work, which only its end or a cancellation frees. A task that does not
// fit the bytes cap makes room by evicting the principal's oldest ended
// tasks (a result not fetched by then is the client's to lose, as its TTL
// would drop it); when the live tasks alone fill the cap, the create is
// refused. Each replica counts the tasks created on it, and hears every
// replica's changes of them through the store.
type taskQuota struct {
	maxLive  int
	maxBytes int64

	mu   sync.Mutex
	by   map[string]*quotaOf   // by creator
	of   map[string]*quotaTask // by task id
	gone []string              // evicted tasks the store still keeps
	// evicted has a value when gone has ids.
	evicted chan struct{}
}

// quotaOf is one principal's tasks, in creation order (so in order of
// expiry, every task having the runner's TTL). Forgotten tasks stay in
// tasks, marked, until they reach its front: forgetting one is O(1).
type quotaOf struct {
	live      int
	bytes     int64
	liveBytes int64 // of the live tasks
	tasks     []*quotaTask
	forgotten int // of tasks
}

type quotaTask struct {
	id        string
	creator   string
	expires   time.Time // zero: never
	size      int64
	ended     bool
	forgotten bool
}

func newTaskQuota(maxLive int, maxBytes int64) *taskQuota {
	if maxLive <= 0 {
		maxLive = DefaultTaskMaxLive
	}
	if maxBytes <= 0 {
		maxBytes = DefaultTaskMaxBytes
	}
	return &taskQuota{maxLive: maxLive, maxBytes: maxBytes, by: map[string]*quotaOf{}, of: map[string]*quotaTask{},
		evicted: make(chan struct{}, 1)}
}

// taskSize is what t counts against the bytes cap.
func taskSize(t *taskstore.Task) int64 {
	n := taskOverhead + len(t.Input) + len(t.Client) + len(t.Result) + len(t.Error) + len(t.Questions) + len(t.StatusMessage)
	for k, v := range t.InputRequests {
		n += len(k) + len(v)
	}
	return int64(n)
}

// admit counts the new task t against its creator's caps, evicting the
// creator's oldest ended tasks for room, or refuses it with a JSON-RPC
// error naming the cap.
func (q *taskQuota) admit(t *taskstore.Task, now time.Time) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	p := q.by[t.Creator]
	if p == nil {
		p = &quotaOf{}
		q.by[t.Creator] = p
	}
	q.expire(p, now)
	live := !t.Status.Terminal()
	if live && p.live >= q.maxLive {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(
			"too many live tasks: %d are working or waiting for answers, the cap is %d per client (task max live): wait for one to end, or cancel one", p.live, q.maxLive)}
	}
	size := taskSize(t)
	if p.liveBytes+size > q.maxBytes {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(
			"too many bytes in tasks: this task's %d and the live tasks' %d exceed the cap of %d bytes per client (task max bytes)", size, p.liveBytes, q.maxBytes)}
	}
	q.makeRoom(p, size, "")
	qt := &quotaTask{id: t.ID, creator: t.Creator, size: size, ended: !live}
	if t.TTL > 0 {
		qt.expires = t.CreatedAt.Add(t.TTL)
	}
	p.tasks = append(p.tasks, qt)
	p.bytes += size
	if live {
		p.live++
		p.liveBytes += size
	}
	q.of[t.ID] = qt
	return nil
}

// changed counts task t as it is after a change, if it was created here:
// its end frees a live place, and a result that outgrows the bytes cap
// evicts the creator's oldest other ended tasks.
func (q *taskQuota) changed(t *taskstore.Task) {
	q.mu.Lock()
	defer q.mu.Unlock()
	qt, ok := q.of[t.ID]
	if !ok || qt.creator != t.Creator {
		return
	}
	p := q.by[qt.creator]
	size := taskSize(t)
	if !qt.ended {
		p.liveBytes -= qt.size
		if t.Status.Terminal() {
			qt.ended = true
			p.live--
		} else {
			p.liveBytes += size
		}
	}
	p.bytes += size - qt.size
	qt.size = size
	q.makeRoom(p, 0, t.ID)
}

// makeRoom evicts p's oldest ended tasks, but keep, until size more bytes
// fit in the cap, or none is left to evict.
func (q *taskQuota) makeRoom(p *quotaOf, size int64, keep string) {
	for i := 0; i < len(p.tasks) && p.bytes+size > q.maxBytes; i++ {
		qt := p.tasks[i]
		if qt.forgotten || !qt.ended || qt.id == keep {
			continue
		}
		q.drop(p, qt)
		q.gone = append(q.gone, qt.id)
		select {
		case q.evicted <- struct{}{}:
		default:
		}
	}
	p.compact()
}

// drop forgets p's task qt: it leaves p.tasks when it reaches the front,
// or when compact finds half of them forgotten.
func (q *taskQuota) drop(p *quotaOf, qt *quotaTask) {
	qt.forgotten = true
	p.forgotten++
	p.bytes -= qt.size
	if !qt.ended {
		p.live--
		p.liveBytes -= qt.size
	}
	delete(q.of, qt.id)
}

// compact removes the forgotten tasks from p.tasks: those at its front at
// once, all of them once they are half.
func (p *quotaOf) compact() {
	i := 0
	for i < len(p.tasks) && p.tasks[i].forgotten {
		i++
	}
	p.tasks, p.forgotten = p.tasks[i:], p.forgotten-i
	if p.forgotten > 0 && 2*p.forgotten >= len(p.tasks) {
		kept := make([]*quotaTask, 0, len(p.tasks)-p.forgotten)
		for _, qt := range p.tasks {
			if !qt.forgotten {
				kept = append(kept, qt)
			}
		}
		p.tasks, p.forgotten = kept, 0
	}
}

// expire forgets p's tasks whose TTL has passed at now (the store drops
// them itself): those at the front, as tasks expire in creation order.
// A task created a moment later but listed earlier expires with the
// next; sweep passes them all.
func (q *taskQuota) expire(p *quotaOf, now time.Time) {
	for _, qt := range p.tasks {
		if !qt.forgotten {
			if qt.expires.IsZero() || !now.After(qt.expires) {
				break
			}
			q.drop(p, qt)
		}
	}
	p.compact()
}

// sweep forgets every task whose TTL has passed at now, and the
// principals left with none.
func (q *taskQuota) sweep(now time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for creator, p := range q.by {
		for _, qt := range p.tasks {
			if !qt.forgotten && !qt.expires.IsZero() && now.After(qt.expires) {
				q.drop(p, qt)
			}
		}
		p.compact()
		if len(p.tasks) == 0 {
			delete(q.by, creator)
		}
	}
}

// forget forgets task id, which was not created after all.
func (q *taskQuota) forget(id string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	qt := q.of[id]
	if qt == nil {
		return
	}
	p := q.by[qt.creator]
	q.drop(p, qt)
	p.compact()
}

// takeEvicted returns the tasks evicted since the last take, for the
// store to forget.
func (q *taskQuota) takeEvicted() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	gone := q.gone
	q.gone = nil
	return gone
}

// usage is what creator's tasks count: live ones, and bytes.
func (q *taskQuota) usage(creator string) (live int, bytes int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if p := q.by[creator]; p != nil {
		return p.live, p.bytes
	}
	return 0, 0
}

// taskSweepEvery is how often a runner drops the tasks whose TTL has
// passed (a shorter TTL sweeps as often as it).
const taskSweepEvery = time.Minute

// janitor drops, until the runner stops, the expired tasks every
// taskSweepEvery (a memory store's; Redis expires them itself), and the
// tasks the quota evicted as soon as it does.
func (tr *taskRunner) janitor() {
	every := min(taskSweepEvery, tr.ttl)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-tr.ctx.Done():
			return
		case <-tick.C:
			now := time.Now()
			tr.store.Sweep(now)
			tr.quota.sweep(now)
		case <-tr.quota.evicted:
			for _, id := range tr.quota.takeEvicted() {
				ctx, cancel := context.WithTimeout(tr.ctx, 2*time.Second)
				if err := tr.store.Delete(ctx, id); err != nil {
					tr.br.opts.Logger.Warn("mcp: evict an ended task", "task", id, "err", err)
				}
				cancel()
			}
		}
	}
}

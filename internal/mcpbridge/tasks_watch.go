package mcpbridge

import (
	"sync"

	"github.com/modkit/modkit/internal/taskstore"
)

// watchers hand the changes of tasks, as the store reports them from
// every replica, to the requests waiting on them here: a tasks/get held
// until its task changes, a subscriptions/listen stream.
type watchers struct {
	once sync.Once
	mu   sync.Mutex
	byID map[string]map[*watcher]struct{}
}

// watcher keeps the latest state of each task it watches until read: a
// state not yet read is replaced by a newer one.
type watcher struct {
	ids    []string
	signal chan struct{} // has a value when states wait to be read

	mu     sync.Mutex
	latest map[string]*taskstore.Task
}

// take returns the states that changed since the last take, by task id.
func (w *watcher) take() map[string]*taskstore.Task {
	w.mu.Lock()
	defer w.mu.Unlock()
	got := w.latest
	w.latest = nil
	return got
}

// watch returns a watcher of the tasks ids; stop it with unwatch.
func (tr *taskRunner) watch(ids ...string) *watcher {
	tr.hearChanges()
	w := &watcher{ids: ids, signal: make(chan struct{}, 1)}
	ws := &tr.watchers
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.byID == nil {
		ws.byID = map[string]map[*watcher]struct{}{}
	}
	for _, id := range ids {
		set := ws.byID[id]
		if set == nil {
			set = map[*watcher]struct{}{}
			ws.byID[id] = set
		}
		set[w] = struct{}{}
	}
	return w
}

// hearChanges starts, once, hearing the store's changes of tasks.
func (tr *taskRunner) hearChanges() {
	tr.watchers.once.Do(func() { tr.store.Watch(tr.ctx, tr.changed) })
}

// unwatch stops w.
func (tr *taskRunner) unwatch(w *watcher) {
	ws := &tr.watchers
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for _, id := range w.ids {
		delete(ws.byID[id], w)
		if len(ws.byID[id]) == 0 {
			delete(ws.byID, id)
		}
	}
}

// changed counts t against its creator's caps, and hands it to the
// watchers of its task, without blocking.
func (tr *taskRunner) changed(t *taskstore.Task) {
	tr.quota.changed(t)
	ws := &tr.watchers
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for w := range ws.byID[t.ID] {
		w.mu.Lock()
		if w.latest == nil {
			w.latest = map[string]*taskstore.Task{}
		}
		w.latest[t.ID] = t
		w.mu.Unlock()
		select {
		case w.signal <- struct{}{}:
		default:
		}
	}
}

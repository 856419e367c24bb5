package taskstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// Memory is a Store in one process's memory. It keeps its own copy of
// each task and hands out copies, so callers never share a *Task.
type Memory struct {
	mu    sync.Mutex
	tasks map[string]memTask
	swept time.Time // when expired tasks were last dropped
	subs  map[int]func(string)
	// watchers are called, m.mu held, with each changed task.
	watchers map[int]func(*Task)
	next     int
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{tasks: map[string]memTask{}, subs: map[int]func(string){}, watchers: map[int]func(*Task){}}
}

var _ Store = (*Memory)(nil)

// memTask is a stored task, and when it expires (zero: never).
type memTask struct {
	task    *Task
	expires time.Time
}

func newMemTask(t *Task) memTask {
	mt := memTask{task: clone(t)}
	if t.TTL > 0 {
		mt.expires = t.CreatedAt.Add(t.TTL)
	}
	return mt
}

func (mt memTask) expired(now time.Time) bool {
	return !mt.expires.IsZero() && now.After(mt.expires)
}

// clone copies t deeply: its byte slices and its map too, which its
// runner changes in place.
func clone(t *Task) *Task {
	c := *t
	c.Input = bytes.Clone(t.Input)
	c.Client = bytes.Clone(t.Client)
	c.Result = bytes.Clone(t.Result)
	c.Error = bytes.Clone(t.Error)
	c.Questions = bytes.Clone(t.Questions)
	if t.InputRequests != nil {
		c.InputRequests = make(map[string]json.RawMessage, len(t.InputRequests))
		for k, v := range t.InputRequests {
			c.InputRequests[k] = bytes.Clone(v)
		}
	}
	return &c
}

// sweepEvery is how often Create drops the expired tasks.
const sweepEvery = time.Minute

func (m *Memory) Create(_ context.Context, t *Task) error {
	mt := newMemTask(t)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(time.Now())
	if _, ok := m.tasks[t.ID]; ok {
		return fmt.Errorf("task %s exists", t.ID)
	}
	m.tasks[t.ID] = mt
	return nil
}

func (m *Memory) Get(_ context.Context, id string) (*Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.get(id)
}

func (m *Memory) get(id string) (*Task, error) {
	mt, ok := m.tasks[id]
	if !ok {
		return nil, ErrNotFound
	}
	if mt.expired(time.Now()) {
		delete(m.tasks, id)
		return nil, ErrNotFound
	}
	return clone(mt.task), nil
}

func (m *Memory) Update(_ context.Context, id string, change func(*Task) error) (*Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.get(id)
	if err != nil {
		return nil, err
	}
	if t.Status.Terminal() {
		return t, ErrEnded
	}
	if err := change(t); err != nil {
		return nil, err
	}
	mt := newMemTask(t)
	m.tasks[id] = mt
	if len(m.watchers) > 0 {
		seen := clone(t) // watchers must not change it: one copy serves them all
		for _, fn := range m.watchers {
			c := *seen
			fn(&c)
		}
	}
	return t, nil
}

func (m *Memory) Delete(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.tasks, id)
	return nil
}

// Sweep forgets the tasks expired at now. Create sweeps too, at most once
// a minute; a server sweeps on a timer.
func (m *Memory) Sweep(now time.Time) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.dropExpired(now)
}

// Len is the number of tasks kept, expired ones not yet swept included.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.tasks)
}

func (m *Memory) Watch(ctx context.Context, fn func(*Task)) {
	m.mu.Lock()
	n := m.next
	m.next++
	m.watchers[n] = fn
	m.mu.Unlock()
	context.AfterFunc(ctx, func() {
		m.mu.Lock()
		delete(m.watchers, n)
		m.mu.Unlock()
	})
}

func (m *Memory) Notify(_ context.Context, id string) error {
	m.mu.Lock()
	fns := make([]func(string), 0, len(m.subs))
	for _, fn := range m.subs {
		fns = append(fns, fn)
	}
	m.mu.Unlock()
	for _, fn := range fns {
		fn(id)
	}
	return nil
}

func (m *Memory) Subscribe(ctx context.Context, fn func(id string)) {
	m.mu.Lock()
	n := m.next
	m.next++
	m.subs[n] = fn
	m.mu.Unlock()
	context.AfterFunc(ctx, func() {
		m.mu.Lock()
		delete(m.subs, n)
		m.mu.Unlock()
	})
}

func (m *Memory) Ping(context.Context) error { return nil }
func (m *Memory) Close() error               { return nil }

// sweep forgets the expired tasks, once per sweepEvery; m.mu is held.
func (m *Memory) sweep(now time.Time) {
	if now.Sub(m.swept) >= sweepEvery {
		m.dropExpired(now)
	}
}

// dropExpired forgets the tasks expired at now and returns how many; m.mu
// is held.
func (m *Memory) dropExpired(now time.Time) int {
	m.swept = now
	n := len(m.tasks)
	for id, mt := range m.tasks {
		if mt.expired(now) {
			delete(m.tasks, id)
		}
	}
	return n - len(m.tasks)
}

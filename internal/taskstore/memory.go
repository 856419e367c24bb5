package taskstore

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// Memory is a Store in one process's memory.
type Memory struct {
	mu    sync.Mutex
	tasks map[string]memTask // callers never share a *Task
	swept time.Time          // when expired tasks were last dropped
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

// memTask is a stored task: its JSON, and when it expires (zero: never).
type memTask struct {
	data    []byte
	expires time.Time
}

func newMemTask(t *Task) (memTask, error) {
	data, err := json.Marshal(t)
	if err != nil {
		return memTask{}, err
	}
	mt := memTask{data: data}
	if t.TTL > 0 {
		mt.expires = t.CreatedAt.Add(t.TTL)
	}
	return mt, nil
}

func (mt memTask) expired(now time.Time) bool {
	return !mt.expires.IsZero() && now.After(mt.expires)
}

// sweepEvery is how often Create drops the expired tasks.
const sweepEvery = time.Minute

func (m *Memory) Create(_ context.Context, t *Task) error {
	mt, err := newMemTask(t)
	if err != nil {
		return err
	}
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
	var t Task
	if err := json.Unmarshal(mt.data, &t); err != nil {
		return nil, err
	}
	return &t, nil
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
	mt, err := newMemTask(t)
	if err != nil {
		return nil, err
	}
	m.tasks[id] = mt
	for _, fn := range m.watchers {
		c := *t
		fn(&c)
	}
	return t, nil
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
	if now.Sub(m.swept) < sweepEvery {
		return
	}
	m.swept = now
	for id, mt := range m.tasks {
		if mt.expired(now) {
			delete(m.tasks, id)
		}
	}
}

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
	tasks map[string][]byte // id -> JSON: callers never share a *Task
	subs  map[int]func(string)
	// watchers are called, m.mu held, with each changed task.
	watchers map[int]func(*Task)
	next     int
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{tasks: map[string][]byte{}, subs: map[int]func(string){}, watchers: map[int]func(*Task){}}
}

var _ Store = (*Memory)(nil)

func (m *Memory) Create(_ context.Context, t *Task) error {
	data, err := json.Marshal(t)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep()
	if _, ok := m.tasks[t.ID]; ok {
		return fmt.Errorf("task %s exists", t.ID)
	}
	m.tasks[t.ID] = data
	return nil
}

func (m *Memory) Get(_ context.Context, id string) (*Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.get(id)
}

func (m *Memory) get(id string) (*Task, error) {
	data, ok := m.tasks[id]
	if !ok {
		return nil, ErrNotFound
	}
	var t Task
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, err
	}
	if expired(&t, time.Now()) {
		delete(m.tasks, id)
		return nil, ErrNotFound
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
	data, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	m.tasks[id] = data
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

// sweep forgets expired tasks; m.mu is held.
func (m *Memory) sweep() {
	if len(m.tasks)%64 != 0 {
		return
	}
	for id := range m.tasks {
		m.get(id)
	}
}

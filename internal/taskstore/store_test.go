package taskstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/taskstore"
	"github.com/modkit/modkit/internal/testserver"
)

// stores returns the stores under test: memory always, Redis when
// redis-server is installed (required under CI).
func stores(t *testing.T) map[string]func(t *testing.T) taskstore.Store {
	return map[string]func(t *testing.T) taskstore.Store{
		"memory": func(*testing.T) taskstore.Store { return taskstore.NewMemory() },
		"redis": func(t *testing.T) taskstore.Store {
			r := testserver.StartRedis(t)
			s, err := taskstore.Open(r.URL())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	}
}

func newTask(id string) *taskstore.Task {
	now := time.Now()
	return &taskstore.Task{ID: id, Tool: "slow", Status: taskstore.Working, CreatedAt: now, UpdatedAt: now, TTL: time.Hour}
}

func TestStore(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			if err := s.Ping(ctx); err != nil {
				t.Fatalf("Ping: %v", err)
			}
			if _, err := s.Get(ctx, "nope"); !errors.Is(err, taskstore.ErrNotFound) {
				t.Fatalf("Get of an unknown task: got %v, want ErrNotFound", err)
			}
			if err := s.Create(ctx, newTask("a")); err != nil {
				t.Fatal(err)
			}
			if err := s.Create(ctx, newTask("a")); err == nil {
				t.Fatal("Create of an existing id: got nil error")
			}
			got, err := s.Update(ctx, "a", func(tk *taskstore.Task) error {
				tk.StatusMessage = "half way"
				return nil
			})
			if err != nil || got.StatusMessage != "half way" {
				t.Fatalf("Update: got %+v, %v", got, err)
			}
			boom := errors.New("boom")
			if _, err := s.Update(ctx, "a", func(tk *taskstore.Task) error { tk.StatusMessage = "lost"; return boom }); !errors.Is(err, boom) {
				t.Fatalf("Update whose change fails: got %v, want boom", err)
			}
			if got, _ := s.Get(ctx, "a"); got.StatusMessage != "half way" {
				t.Fatalf("after a failed change: got status message %q, want %q", got.StatusMessage, "half way")
			}
			if _, err := s.Update(ctx, "a", func(tk *taskstore.Task) error { tk.Status = taskstore.Cancelled; return nil }); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Update(ctx, "a", func(tk *taskstore.Task) error { tk.Status = taskstore.Completed; return nil }); !errors.Is(err, taskstore.ErrEnded) || got.Status != taskstore.Cancelled {
				t.Fatalf("Update of an ended task: got %v, %v; want it cancelled, ErrEnded", got.Status, err)
			}
			if _, err := s.Update(ctx, "nope", func(*taskstore.Task) error { return nil }); !errors.Is(err, taskstore.ErrNotFound) {
				t.Fatalf("Update of an unknown task: got %v, want ErrNotFound", err)
			}
		})
	}
}

// TestStoreConcurrentUpdates: updates racing from many goroutines (many
// replicas) are all applied, none lost.
func TestStoreConcurrentUpdates(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			if err := s.Create(ctx, newTask("c")); err != nil {
				t.Fatal(err)
			}
			const n = 20
			var wg sync.WaitGroup
			for range n {
				wg.Go(func() {
					if _, err := s.Update(ctx, "c", func(tk *taskstore.Task) error { tk.Runs++; return nil }); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			got, err := s.Get(ctx, "c")
			if err != nil || got.Runs != n {
				t.Fatalf("after %d concurrent updates: got runs %d (%v), want %d", n, got.Runs, err, n)
			}
		})
	}
}

// TestStoreDelete: a deleted task is unknown, on every client of the store.
func TestStoreDelete(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			tk := newTask("d")
			tk.Creator = "https://issuer sub \"ada\""
			if err := s.Create(ctx, tk); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Get(ctx, "d"); err != nil || got.Creator != tk.Creator {
				t.Fatalf("Get: got %+v, %v; want the task with its creator", got, err)
			}
			if err := s.Delete(ctx, "d"); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Get(ctx, "d"); !errors.Is(err, taskstore.ErrNotFound) {
				t.Fatalf("Get of a deleted task: got %v, want ErrNotFound", err)
			}
			if err := s.Delete(ctx, "d"); err != nil {
				t.Fatalf("Delete of a task not there: %v", err)
			}
		})
	}
}

// TestMemorySweep: Sweep forgets the expired tasks only.
func TestMemorySweep(t *testing.T) {
	m := taskstore.NewMemory()
	ctx := context.Background()
	old, young := newTask("old"), newTask("young")
	old.CreatedAt = old.CreatedAt.Add(-2 * time.Hour)
	for _, tk := range []*taskstore.Task{old, young} {
		if err := m.Create(ctx, tk); err != nil {
			t.Fatal(err)
		}
	}
	if n := m.Sweep(time.Now()); n != 1 || m.Len() != 1 {
		t.Fatalf("Sweep: got %d forgotten, %d kept; want 1 and 1", n, m.Len())
	}
	if _, err := m.Get(ctx, "young"); err != nil {
		t.Fatalf("the task not expired: %v", err)
	}
}

func TestStoreExpiry(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			tk := newTask("e")
			tk.CreatedAt = time.Now().Add(-time.Hour)
			tk.TTL = time.Hour + 50*time.Millisecond
			if err := s.Create(ctx, tk); err != nil {
				t.Fatal(err)
			}
			for {
				_, err := s.Get(ctx, "e")
				if errors.Is(err, taskstore.ErrNotFound) {
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				time.Sleep(10 * time.Millisecond) // the TTL is the event awaited
			}
		})
	}
}

// TestStoreNotify: a cancellation reaches every subscriber.
func TestStoreNotify(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			got := make(chan string, 1)
			s.Subscribe(ctx, func(id string) { got <- id })
			// A Redis subscription takes effect asynchronously: publish
			// until it is heard.
			for {
				if err := s.Notify(ctx, "t1"); err != nil {
					t.Fatal(err)
				}
				select {
				case id := <-got:
					if id != "t1" {
						t.Fatalf("got %q, want t1", id)
					}
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		})
	}
}

// TestStoreWatch: every change of a task reaches a watcher, in order, as
// the task is after it.
func TestStoreWatch(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			got := make(chan *taskstore.Task, 16)
			s.Watch(ctx, func(tk *taskstore.Task) { got <- tk })
			if err := s.Create(ctx, newTask("w")); err != nil {
				t.Fatal(err)
			}
			// A Redis subscription takes effect asynchronously: change the
			// task until a change is heard.
			var first *taskstore.Task
			for first == nil {
				if _, err := s.Update(ctx, "w", func(tk *taskstore.Task) error { tk.Runs++; return nil }); err != nil {
					t.Fatal(err)
				}
				select {
				case first = <-got:
				case <-time.After(50 * time.Millisecond):
				}
			}
			if first.ID != "w" || first.Runs < 1 {
				t.Fatalf("first change heard: got %+v", first)
			}
			if _, err := s.Update(ctx, "w", func(tk *taskstore.Task) error { tk.Status = taskstore.Completed; return nil }); err != nil {
				t.Fatal(err)
			}
			for {
				tk := <-got
				if tk.Status == taskstore.Completed {
					break
				}
			}
		})
	}
}

// TestRedisRestart: a store whose Redis restarts fails clearly while it is
// down, then works again, and its subscription hears cancellations again.
func TestRedisRestart(t *testing.T) {
	r := testserver.StartRedis(t)
	s, err := taskstore.Open(r.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 16)
	s.Subscribe(ctx, func(id string) { got <- id })
	r.Stop()
	if err := s.Create(ctx, newTask("down")); err == nil {
		t.Fatal("Create while Redis is down: got nil error")
	}
	r.Start()
	for s.Ping(ctx) != nil {
		time.Sleep(20 * time.Millisecond)
	}
	if err := s.Create(ctx, newTask("up")); err != nil {
		t.Fatalf("Create after Redis restarted: %v", err)
	}
	for {
		s.Notify(ctx, "again")
		select {
		case <-got:
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func TestOpen(t *testing.T) {
	for _, spec := range []string{"", "memory"} {
		if s, err := taskstore.Open(spec); err != nil || s == nil {
			t.Errorf("Open(%q): %v", spec, err)
		}
	}
	for _, spec := range []string{"postgres://x", "redis//nope", "file.db"} {
		if _, err := taskstore.Open(spec); err == nil {
			t.Errorf("Open(%q): got nil error", spec)
		}
	}
}

// TestStoreCopies: a task handed to or returned by a store, changed in
// place afterwards (its map and its bytes too), leaves the stored task as
// it was.
func TestStoreCopies(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			tk := newTask("c")
			tk.Result = []byte(`{"x":1}`)
			tk.InputRequests = map[string]json.RawMessage{"q": json.RawMessage(`{"a":1}`)}
			if err := s.Create(ctx, tk); err != nil {
				t.Fatal(err)
			}
			tk.Result[6] = '2'
			delete(tk.InputRequests, "q")
			got, err := s.Get(ctx, "c")
			if err != nil {
				t.Fatal(err)
			}
			got.Result[6] = '3'
			got.InputRequests["q"][5] = '9'
			got.StatusMessage = "changed"
			again, err := s.Get(ctx, "c")
			if err != nil {
				t.Fatal(err)
			}
			if string(again.Result) != `{"x":1}` || string(again.InputRequests["q"]) != `{"a":1}` || again.StatusMessage != "" {
				t.Fatalf("got result %s, input requests %s, status message %q; want them as created", again.Result, again.InputRequests, again.StatusMessage)
			}
		})
	}
}

// TestGetUnchangedByUpdate: a task Get returned stays as it was when an
// Update edits the task's slices and map in place, and changing the
// returned task's fields does not change the stored one.
func TestGetUnchangedByUpdate(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			tk := newTask("a")
			tk.Input = json.RawMessage(`{"n":1}`)
			tk.InputRequests = map[string]json.RawMessage{"q": json.RawMessage(`{"mode":"form"}`)}
			if err := s.Create(ctx, tk); err != nil {
				t.Fatal(err)
			}
			got, err := s.Get(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Update(ctx, "a", func(tk *taskstore.Task) error {
				tk.Input[5] = '2'
				delete(tk.InputRequests, "q")
				tk.StatusMessage = "changed"
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if string(got.Input) != `{"n":1}` || len(got.InputRequests) != 1 || got.StatusMessage != "" {
				t.Errorf("the task Get returned before an Update: got input %s, requests %v, message %q; want it unchanged", got.Input, got.InputRequests, got.StatusMessage)
			}
			got.StatusMessage = "mine"
			again, err := s.Get(ctx, "a")
			if err != nil || string(again.Input) != `{"n":2}` || len(again.InputRequests) != 0 || again.StatusMessage != "changed" {
				t.Errorf("Get after the Update: got %+v, %v; want input {\"n\":2}, no requests, message \"changed\"", again, err)
			}
		})
	}
}

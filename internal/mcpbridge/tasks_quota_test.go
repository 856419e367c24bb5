package mcpbridge

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modkit/modkit/internal/taskstore"
)

// TestTaskQuota: the caps per principal, as steps on one quota.
func TestTaskQuota(t *testing.T) {
	t0 := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	task := func(id, creator string, status taskstore.Status, result int) *taskstore.Task {
		return &taskstore.Task{ID: id, Creator: creator, Status: status, CreatedAt: t0, TTL: time.Hour,
			Result: []byte(strings.Repeat("r", result))}
	}
	one := taskSize(task("x", "", taskstore.Completed, 0)) // a task without result
	type step struct {
		admit   *taskstore.Task
		changed *taskstore.Task
		at      time.Duration // after t0
		refused string        // what the refusal says; "" for none
	}
	for _, tc := range []struct {
		name     string
		maxLive  int
		maxBytes int64
		steps    []step
		evicted  []string
		live     map[string]int
	}{
		{"live tasks past the cap are refused", 2, 1 << 20, []step{
			{admit: task("a", "ada", taskstore.Working, 0)},
			{admit: task("b", "ada", taskstore.InputRequired, 0)},
			{admit: task("c", "ada", taskstore.Working, 0), refused: "too many live tasks: 2 are working or waiting for answers, the cap is 2 per client"},
			{admit: task("d", "ada", taskstore.Completed, 0)}, // created ended: no live place
			{admit: task("e", "bob", taskstore.Working, 0)},   // another principal: caps of its own
		}, nil, map[string]int{"ada": 2, "bob": 1}},
		{"an ended task frees its place", 1, 1 << 20, []step{
			{admit: task("a", "", taskstore.Working, 0)},
			{admit: task("b", "", taskstore.Working, 0), refused: "the cap is 1"},
			{changed: task("a", "", taskstore.Cancelled, 0)},
			{admit: task("b", "", taskstore.Working, 0)},
		}, nil, map[string]int{"": 1}},
		{"a change of another principal's id is not counted", 1, 1 << 20, []step{
			{admit: task("a", "ada", taskstore.Working, 0)},
			{changed: task("a", "bob", taskstore.Completed, 0)},
			{admit: task("b", "ada", taskstore.Working, 0), refused: "the cap is 1"},
		}, nil, map[string]int{"ada": 1}},
		{"bytes past the cap evict the oldest ended tasks", 10, 3 * one, []step{
			{admit: task("a", "ada", taskstore.Completed, 0)},
			{admit: task("b", "ada", taskstore.Working, 0)},
			{admit: task("c", "ada", taskstore.Completed, 0)},
			{admit: task("d", "ada", taskstore.Completed, 0)},
			{admit: task("e", "bob", taskstore.Completed, 0)},
		}, []string{"a"}, map[string]int{"ada": 1}},
		{"live tasks are never evicted: a task that does not fit beside them is refused", 10, 2 * one, []step{
			{admit: task("a", "ada", taskstore.Completed, 0)},
			{admit: task("b", "ada", taskstore.Working, 0)},
			{admit: task("c", "ada", taskstore.Working, 0)},
			{admit: task("d", "ada", taskstore.Working, 0), refused: "exceed the cap of"},
		}, []string{"a"}, map[string]int{"ada": 2}},
		{"a result that outgrows the cap evicts the other ended tasks", 10, 3*one + 100, []step{
			{admit: task("a", "ada", taskstore.Completed, 0)},
			{admit: task("b", "ada", taskstore.Completed, 0)},
			{admit: task("c", "ada", taskstore.Working, 0)},
			{changed: task("c", "ada", taskstore.Completed, int(2*one))},
		}, []string{"a", "b"}, map[string]int{"ada": 0}},
		{"expired tasks count no more", 1, 1 << 20, []step{
			{admit: task("a", "ada", taskstore.Working, 0)},
			{admit: task("b", "ada", taskstore.Working, 0), at: time.Hour, refused: "the cap is 1"},
			{admit: task("b", "ada", taskstore.Working, 0), at: time.Hour + time.Second},
		}, nil, map[string]int{"ada": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := newTaskQuota(tc.maxLive, tc.maxBytes)
			for i, s := range tc.steps {
				if s.changed != nil {
					q.changed(s.changed)
					continue
				}
				err := q.admit(s.admit, t0.Add(s.at))
				switch {
				case s.refused == "" && err != nil:
					t.Fatalf("step %d: admit %s: %v", i, s.admit.ID, err)
				case s.refused != "" && (err == nil || !strings.Contains(err.Error(), s.refused)):
					t.Fatalf("step %d: admit %s: got %v, want a refusal saying %q", i, s.admit.ID, err, s.refused)
				}
			}
			if got := q.takeEvicted(); !slices.Equal(got, tc.evicted) {
				t.Errorf("evicted: got %v, want %v", got, tc.evicted)
			}
			for who, want := range tc.live {
				if got, _ := q.usage(who); got != want {
					t.Errorf("live tasks of %q: got %d, want %d", who, got, want)
				}
			}
			for who := range q.by {
				if _, bytes := q.usage(who); bytes > tc.maxBytes {
					t.Errorf("bytes of %q: got %d, want at most %d", who, bytes, tc.maxBytes)
				}
			}
		})
	}
}

// TestTaskSweep: expired tasks are swept on a timer, with no new task
// made, and the timer stops with the runner (the bubble would not end
// otherwise).
func TestTaskSweep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := taskstore.NewMemory()
		br := &bridge{opts: Options{Logger: slog.New(slog.DiscardHandler)}}
		tr := newTaskRunner(br, &Options{TaskStore: store, TaskTTL: 10 * time.Minute})
		ctx := context.Background()
		now := time.Now()
		for _, tk := range []*taskstore.Task{
			{ID: "old", Status: taskstore.Completed, CreatedAt: now, TTL: 10 * time.Minute},
			{ID: "young", Status: taskstore.Completed, CreatedAt: now.Add(5 * time.Minute), TTL: 10 * time.Minute},
		} {
			if err := store.Create(ctx, tk); err != nil {
				t.Fatal(err)
			}
			if err := tr.quota.admit(tk, now); err != nil {
				t.Fatal(err)
			}
		}
		tr.begin()
		time.Sleep(10*time.Minute + taskSweepEvery)
		synctest.Wait()
		if got := store.Len(); got != 1 {
			t.Errorf("tasks kept after the first TTL and a sweep: got %d, want 1", got)
		}
		tr.quota.mu.Lock()
		counted := len(tr.quota.of)
		tr.quota.mu.Unlock()
		if got := counted; got != 1 {
			t.Errorf("tasks counted after the first TTL and a sweep: got %d, want 1", got)
		}
		time.Sleep(5 * time.Minute)
		synctest.Wait()
		if got := store.Len(); got != 0 {
			t.Errorf("tasks kept after every TTL and a sweep: got %d, want 0", got)
		}
		tr.Close()
	})
}

package coalesce_test

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modkit/modkit/internal/coalesce"
)

// recorder records what a Coalescer delivers, from any goroutine.
type recorder[T any] struct {
	mu  sync.Mutex
	got []T
}

func (r *recorder[T]) deliver(v T) {
	r.mu.Lock()
	r.got = append(r.got, v)
	r.mu.Unlock()
}

func (r *recorder[T]) values() []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

func TestCoalescer(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		r := &recorder[int]{}
		c := coalesce.New(100*time.Millisecond, r.deliver)
		// A burst: the first passes, the latest of the rest arrives when the
		// interval ends.
		for i := 1; i <= 50; i++ {
			c.Push(i)
		}
		if got, want := r.values(), []int{1}; !slices.Equal(got, want) {
			t.Fatalf("after a burst: got %v, want %v", got, want)
		}
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if got, want := r.values(), []int{1, 50}; !slices.Equal(got, want) {
			t.Fatalf("after the interval: got %v, want %v", got, want)
		}
		// 1000 updates over 2 s, one every 2 ms: at most one per 100 ms.
		for i := 100; i < 1100; i++ {
			c.Push(i)
			time.Sleep(2 * time.Millisecond)
		}
		c.Flush()
		got := r.values()
		if n := len(got) - 2; n > 21 {
			t.Errorf("1000 updates over 2s: %d delivered, want at most 21", n)
		}
		if last := got[len(got)-1]; last != 1099 {
			t.Errorf("last delivered: got %d, want the latest, 1099", last)
		}
		for i := 1; i < len(got); i++ {
			if got[i] <= got[i-1] {
				t.Errorf("deliveries out of order: %v", got)
				break
			}
		}
		// After Flush, nothing more.
		c.Push(5000)
		time.Sleep(time.Second)
		if after := r.values(); len(after) != len(got) {
			t.Errorf("a value pushed after Flush was delivered: %v", after[len(got):])
		}
	})
}

func TestCoalescerQuiet(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		r := &recorder[string]{}
		c := coalesce.New(100*time.Millisecond, r.deliver)
		// Updates further apart than the interval pass at once.
		for _, v := range []string{"a", "b", "c"} {
			c.Push(v)
			time.Sleep(150 * time.Millisecond)
		}
		c.Push("d")
		c.Push("e") // held
		c.Flush()
		if got, want := r.values(), []string{"a", "b", "c", "d", "e"}; !slices.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})
}

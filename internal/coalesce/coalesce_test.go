package coalesce_test

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modkit/modkit/internal/coalesce"
)

func TestCoalescer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got []int
		c := coalesce.New(100*time.Millisecond, func(v int) { got = append(got, v) })
		// A burst: the first passes, the latest of the rest arrives when the
		// interval ends.
		for i := 1; i <= 50; i++ {
			c.Push(i)
		}
		if want := []int{1}; !slices.Equal(got, want) {
			t.Fatalf("after a burst: got %v, want %v", got, want)
		}
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if want := []int{1, 50}; !slices.Equal(got, want) {
			t.Fatalf("after the interval: got %v, want %v", got, want)
		}
		// 1000 updates over 2 s, one every 2 ms: at most one per 100 ms.
		for i := 100; i < 1100; i++ {
			c.Push(i)
			time.Sleep(2 * time.Millisecond)
		}
		c.Flush()
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
		n := len(got)
		c.Push(5000)
		time.Sleep(time.Second)
		if len(got) != n {
			t.Errorf("a value pushed after Flush was delivered: %v", got[n:])
		}
	})
}

func TestCoalescerQuiet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got []string
		c := coalesce.New(100*time.Millisecond, func(v string) { got = append(got, v) })
		// Updates further apart than the interval pass at once.
		for _, v := range []string{"a", "b", "c"} {
			c.Push(v)
			time.Sleep(150 * time.Millisecond)
		}
		c.Push("d")
		c.Push("e") // held
		c.Flush()
		if want := []string{"a", "b", "c", "d", "e"}; !slices.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})
}

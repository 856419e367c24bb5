package main

import (
	"context"
	"testing"
	"time"
)

func TestIdleLatencies(t *testing.T) {
	var calls int
	var last time.Time
	xs, err := idleLatencies(context.Background(), 5, func(context.Context) error {
		if !last.IsZero() && time.Since(last) < idleSpell {
			t.Errorf("call %d came %v after the last, want at least %v", calls, time.Since(last), idleSpell)
		}
		calls++
		last = time.Now()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 5 || len(xs) != 5 {
		t.Errorf("got %d calls and %d latencies, want 5 each", calls, len(xs))
	}
}

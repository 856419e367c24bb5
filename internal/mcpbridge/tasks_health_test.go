package mcpbridge

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/taskstore"
)

func TestStoreHealth(t *testing.T) {
	t.Parallel()
	var h storeHealth
	t0 := time.Unix(1000, 0)
	down := errors.New("down")
	if d := h.note(nil, t0); d != 0 {
		t.Fatalf("answering: got %s, want 0", d)
	}
	if d := h.note(down, t0.Add(time.Second)); d != 0 {
		t.Fatalf("first failed check: got %s, want 0", d)
	}
	if d := h.note(down, t0.Add(5*time.Second)); d != 4*time.Second {
		t.Fatalf("failing since 4 s: got %s", d)
	}
	if d := h.note(nil, t0.Add(6*time.Second)); d != 0 {
		t.Fatalf("answering again: got %s, want 0", d)
	}
	if d := h.note(down, t0.Add(7*time.Second)); d != 0 {
		t.Fatalf("failing anew: got %s, want 0", d)
	}
}

// TestStoreUnreachableFor: a store that does not answer counts as
// unreachable from its first failed check on.
func TestStoreUnreachableFor(t *testing.T) {
	t.Parallel()
	store, err := taskstore.Open("redis://127.0.0.1:1/0") // nothing listens on port 1
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	srv, err := NewServer(newTaskBackend(), &Options{TaskStore: store})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(nil)
	defer h.Close()
	if d := h.StoreUnreachableFor(); d != 0 {
		t.Fatalf("before any check: got %s, want 0", d)
	}
	if err := h.StoreReachable(context.Background()); err == nil {
		t.Fatal("StoreReachable of a store that does not answer: got nil")
	}
	first := h.StoreUnreachableFor()
	for h.StoreUnreachableFor() == first { // the clock moves on
		time.Sleep(time.Millisecond)
	}
	if err := h.StoreReachable(context.Background()); err == nil || h.StoreUnreachableFor() <= first {
		t.Fatalf("a second failed check: got %v, unreachable for %s; want an error and longer than %s", err, h.StoreUnreachableFor(), first)
	}
}

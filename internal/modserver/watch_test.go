package modserver

import (
	"fmt"
	"testing"
)

// TestHeldUpdatesBounded: at most maxHeld URIs wait for the first
// watcher, the first ones.
func TestHeldUpdatesBounded(t *testing.T) {
	var w watchers
	for i := range maxHeld + 10 {
		w.notify(fmt.Sprint("w://", i))
	}
	wt, remove := w.add()
	defer remove()
	got := wt.take()
	if len(got) != maxHeld || got[0] != "w://0" || got[maxHeld-1] != fmt.Sprint("w://", maxHeld-1) {
		t.Errorf("the first watcher got %d URIs, want the first %d", len(got), maxHeld)
	}
}

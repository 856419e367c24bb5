package modapi_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/sdk"
)

// watchLog is an ActivityWatcher that records what it was told.
type watchLog []string

func (w *watchLog) MakeRoom(logs int)             { *w = append(*w, fmt.Sprint("room ", logs)) }
func (w *watchLog) Activity(u sdk.ActivityUpdate) { *w = append(*w, u.Text) }

// TestCallRequestDeliver checks that a request is live with a Watcher or
// OnActivity, and that the Watcher, when set, gets the updates.
func TestCallRequestDeliver(t *testing.T) {
	t.Parallel()
	u := sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "a"}
	if (&modapi.CallRequest{}).Live() {
		t.Error("got a request with neither live, want not")
	}
	var w watchLog
	var on []string
	r := &modapi.CallRequest{Watcher: &w, OnActivity: func(u sdk.ActivityUpdate) { on = append(on, u.Text) }}
	r.MakeRoom(1)
	r.Deliver(u)
	if !r.Live() || !slices.Equal(w, watchLog{"room 1", "a"}) || on != nil {
		t.Errorf("with a Watcher: got live %v, watcher %q, OnActivity %q; want live, room 1 and a to the watcher", r.Live(), w, on)
	}
	r.Watcher = nil
	r.MakeRoom(1)
	r.Deliver(u)
	if !r.Live() || !slices.Equal(on, []string{"a"}) {
		t.Errorf("with OnActivity: got live %v, OnActivity %q; want live, a", r.Live(), on)
	}
}

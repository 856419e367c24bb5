package sdk

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/sdkrt"
)

// TestToolContextLimitsActivity checks that a handler flooding the log sends
// no more than a host keeps: the limit holds in the mod too.
func TestToolContextLimitsActivity(t *testing.T) {
	var sent []ActivityUpdate
	tc := newToolContext(context.Background(), sdkrt.Call{Activity: sdkrt.ActivityFunc(func(kind, text string) {
		sent = append(sent, ActivityUpdate{Kind: ActivityKind(kind), Text: text})
	})})
	tc.Title("Flood")
	for i := range 100000 {
		tc.Log("entry " + strconv.Itoa(i+1))
	}
	tc.Status(strings.Repeat("s", 1<<20))
	tc.end()
	if got, want := len(sent), 1+1000+1+1; got != want {
		t.Fatalf("got %d updates sent, want %d", got, want)
	}
	if got := sent[1001].Text; got != limits.LogTruncated {
		t.Errorf("got update 1001 %q, want the truncation entry", got)
	}
	if got := len(sent[1002].Text); got > limits.MaxActivityText+len("…") {
		t.Errorf("got a %d-byte status sent, want at most 4 KiB", got)
	}
}

// TestToolContextContext checks the handler's context, made on first use:
// it carries the call's values, ends with the call's, and is cancelled
// once the call has ended, whether made before or after.
func TestToolContextContext(t *testing.T) {
	type key struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	defer cancel()
	tc := newToolContext(parent, sdkrt.Call{})
	if got := tc.Context().Value(key{}); got != "v" {
		t.Errorf("got value %v, want v", got)
	}
	if err := tc.Err(); err != nil {
		t.Errorf("got Err %v before the end, want nil", err)
	}
	cancel()
	<-tc.Done()
	if err := tc.Err(); err != context.Canceled {
		t.Errorf("got Err %v after the call's context ended, want %v", err, context.Canceled)
	}

	for _, early := range []bool{true, false} {
		tc := newToolContext(context.Background(), sdkrt.Call{})
		if early {
			tc.Context()
		}
		tc.end()
		select {
		case <-tc.Done():
		default:
			t.Errorf("made early %v: got Done open after the end, want closed", early)
		}
		if err := tc.Context().Err(); err != context.Canceled {
			t.Errorf("made early %v: got Err %v after the end, want %v", early, err, context.Canceled)
		}
	}
}

// TestToolContextAllocs checks that a handler that never looks at its
// context pays for none.
func TestToolContextAllocs(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := testing.AllocsPerRun(100, func() {
		tc := newToolContext(parent, sdkrt.Call{})
		tc.end()
	})
	if got > 1 {
		t.Errorf("got %.0f allocations a call, want 1 (the ToolContext)", got)
	}
}

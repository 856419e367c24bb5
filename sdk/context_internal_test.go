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
	tc := newToolContext(context.Background(), sdkrt.Call{Activity: func(kind, text string) {
		sent = append(sent, ActivityUpdate{Kind: ActivityKind(kind), Text: text})
	}})
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

package sdk_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk"
)

const logTruncated = "log truncated: a call keeps at most 1000 entries and 1 MiB of log; later entries were dropped"

func TestActivityStateLimits(t *testing.T) {
	tests := []struct {
		name      string
		n, size   int // log entries sent and their size
		wantKept  int // entries kept before the truncation entry
		truncated bool
	}{
		{"under both limits", 1000, 10, 1000, false},
		{"over the entry limit", 5000, 10, 1000, true},
		{"over the byte limit", 300, 4000, (1 << 20) / 4000, true},
		{"texts cut to 4 KiB", 100, 100000, 100, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s sdk.ActivityState
			for i := range tt.n {
				s.Apply(sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: fmt.Sprintf("%0*d", tt.size, i)})
			}
			want := tt.wantKept
			if tt.truncated {
				want++
			}
			if len(s.Log) != want {
				t.Fatalf("got %d entries, want %d", len(s.Log), want)
			}
			if last := s.Log[len(s.Log)-1]; tt.truncated != (last.Message == logTruncated) || last.Seq != want {
				t.Errorf("got last entry %d %.80q, want entry %d, truncation said: %v", last.Seq, last.Message, want, tt.truncated)
			}
			for _, e := range s.Log {
				if len(e.Message) > 4096+len("…") {
					t.Fatalf("entry %d has %d bytes, want at most 4 KiB", e.Seq, len(e.Message))
				}
			}
		})
	}
	var s sdk.ActivityState
	s.Apply(sdk.ActivityUpdate{Kind: sdk.ActivityTitle, Text: strings.Repeat("t", 1<<20)})
	s.Apply(sdk.ActivityUpdate{Kind: sdk.ActivityStatus, Text: strings.Repeat("s", 1<<20)})
	if len(s.Title) > 4096+len("…") || len(s.Status) > 4096+len("…") {
		t.Errorf("got a %d-byte title and a %d-byte status, want at most 4 KiB each", len(s.Title), len(s.Status))
	}
}

type recorder struct{ updates []sdk.ActivityUpdate }

func (r *recorder) Activity(u sdk.ActivityUpdate) { r.updates = append(r.updates, u) }

// TestToolContextLimitsActivity checks that a handler flooding the log sends
// no more than a host keeps: the limit holds in the mod too.
func TestToolContextLimitsActivity(t *testing.T) {
	var r recorder
	tc := sdk.NewToolContext(context.Background(), sdk.CallInfo{}, &r)
	tc.Title("Flood")
	for i := range 100000 {
		tc.Log("entry " + strconv.Itoa(i+1))
	}
	tc.Status(strings.Repeat("s", 1<<20))
	tc.End()
	if got, want := len(r.updates), 1+1000+1+1; got != want {
		t.Fatalf("got %d updates sent, want %d", got, want)
	}
	if got := r.updates[1001].Text; got != logTruncated {
		t.Errorf("got update 1001 %q, want the truncation entry", got)
	}
	if got := len(r.updates[1002].Text); got > 4096+len("…") {
		t.Errorf("got a %d-byte status sent, want at most 4 KiB", got)
	}
	// A host applying what was sent keeps the same.
	var s sdk.ActivityState
	for _, u := range r.updates {
		s.Apply(u)
	}
	if len(s.Log) != 1001 || s.Log[1000].Message != logTruncated {
		t.Errorf("host state: got %d entries, last %q", len(s.Log), s.Log[len(s.Log)-1].Message)
	}
}

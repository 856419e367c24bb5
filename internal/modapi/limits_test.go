package modapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/sdk"
)

func TestApplyLimits(t *testing.T) {
	t.Parallel()
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
		for _, applier := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/applier=%v", tt.name, applier), func(t *testing.T) {
				var s sdk.ActivityState
				var a modapi.Applier
				for i := range tt.n {
					u := sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: fmt.Sprintf("%0*d", tt.size, i)}
					if applier {
						a.Apply(&s, u)
					} else {
						modapi.Apply(&s, u)
					}
				}
				want := tt.wantKept
				if tt.truncated {
					want++
				}
				if len(s.Log) != want {
					t.Fatalf("got %d entries, want %d", len(s.Log), want)
				}
				if last := s.Log[len(s.Log)-1]; tt.truncated != (last.Message == limits.LogTruncated) || last.Seq != want {
					t.Errorf("got last entry %d %.80q, want entry %d, truncation said: %v", last.Seq, last.Message, want, tt.truncated)
				}
				for _, e := range s.Log {
					if len(e.Message) > limits.MaxActivityText+len("…") {
						t.Fatalf("entry %d has %d bytes, want at most 4 KiB", e.Seq, len(e.Message))
					}
				}
			})
		}
	}
	var s sdk.ActivityState
	modapi.Apply(&s, sdk.ActivityUpdate{Kind: sdk.ActivityTitle, Text: strings.Repeat("t", 1<<20)})
	modapi.Apply(&s, sdk.ActivityUpdate{Kind: sdk.ActivityStatus, Text: strings.Repeat("s", 1<<20)})
	if len(s.Title) > limits.MaxActivityText+len("…") || len(s.Status) > limits.MaxActivityText+len("…") {
		t.Errorf("got a %d-byte title and a %d-byte status, want at most 4 KiB each", len(s.Title), len(s.Status))
	}
}

package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/coalesce"
	"github.com/modkit/modkit/sdk"
)

// TestActivityViewTerminal floods the terminal view with status updates: it
// redraws the status line at most ten times a second, keeps log lines whole,
// and ends on the latest status.
func TestActivityViewTerminal(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	v := &activityView{w: &out, tty: true}
	v.status = coalesce.New(statusInterval, v.drawStatus)
	start := time.Now()
	v.show(host.ActivityEvent{Update: sdk.ActivityUpdate{Kind: sdk.ActivityTitle, Text: "Scan"}})
	const updates = 2000
	for i := 1; i <= updates; i++ {
		v.show(host.ActivityEvent{Update: sdk.ActivityUpdate{Kind: sdk.ActivityStatus, Text: "file " + strconv.Itoa(i)}})
		if i == updates/2 {
			v.show(host.ActivityEvent{Seq: 1, Update: sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "halfway"}})
		}
	}
	elapsed := time.Since(start)
	v.finish()
	got := out.String()
	if !strings.HasPrefix(got, "== Scan\n") {
		t.Errorf("output starts %q, want the title", got[:min(len(got), 20)])
	}
	if !strings.Contains(got, "\r\x1b[K   1  halfway\n") {
		t.Errorf("the log line is not on a cleared line of its own:\n%q", got)
	}
	if !strings.HasSuffix(got, "… file "+strconv.Itoa(updates)+"\n") {
		t.Errorf("output ends %q, want the latest status", got[max(0, len(got)-40):])
	}
	// Redraws: one per interval, one held at the end, and one after the log
	// line.
	if n, most := strings.Count(got, "\r\x1b[K… "), 3+int(elapsed/statusInterval); n > most {
		t.Errorf("%d updates in %v: %d redraws, want at most %d", updates, elapsed, n, most)
	}
}

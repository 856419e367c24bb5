package modapi_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/sdk"
)

func TestCapResult(t *testing.T) {
	t.Parallel()
	outputs := []sdk.Output{{MimeType: "text/plain", Content: "abc", URI: "file:///x"}} // 10 + 3 + 9 bytes
	tests := []struct {
		name     string
		o        modapi.Outcome
		max      int
		wantFail string
	}{
		{"at the cap", modapi.Outcome{Status: modapi.StatusCompleted, Text: "12345", Result: []byte(`[1]`), Outputs: outputs}, 30, ""},
		{"over the cap", modapi.Outcome{Status: modapi.StatusCompleted, Text: "123456", Result: []byte(`[1]`), Outputs: outputs}, 30,
			"tool t returned 31 bytes, over the 30-byte result limit; it should return a compact result"},
		{"no cap", modapi.Outcome{Status: modapi.StatusCompleted, Text: strings.Repeat("x", 100)}, 0, ""},
		{"failed outcomes are not measured", modapi.Outcome{Status: modapi.StatusFailed, Error: strings.Repeat("x", 100)}, 10, ""},
	}
	for _, tt := range tests {
		o := tt.o
		modapi.CapResult("t", &o, tt.max)
		if tt.wantFail == "" {
			if o.Status != tt.o.Status || o.Text != tt.o.Text {
				t.Errorf("%s: got %+v, want it unchanged", tt.name, o)
			}
			continue
		}
		if o.Status != modapi.StatusFailed || o.Error != tt.wantFail || o.Text != "" || o.Outputs != nil {
			t.Errorf("%s: got %+v, want failed with %q and nothing else", tt.name, o, tt.wantFail)
		}
	}
}

func TestCapMessage(t *testing.T) {
	t.Parallel()
	if got := modapi.CapMessage("command c", "12345", 5); got != "" {
		t.Errorf("at the cap: got %q, want none", got)
	}
	want := "slash command /s returned 6 bytes, over the 5-byte message limit; it should return a short message"
	if got := modapi.CapMessage("slash command /s", "123456", 5); got != want {
		t.Errorf("over the cap: got %q, want %q", got, want)
	}
	if got := modapi.CapMessage("command c", "123456", 0); got != "" {
		t.Errorf("no cap: got %q, want none", got)
	}
}

func TestOutcomeMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		o    modapi.Outcome
		want string
	}{
		{modapi.Outcome{Status: modapi.StatusFailed, Error: "invalid input:\n  /a: x\n  /b: y", Problems: []string{"/a: x", "/b: y"}},
			"invalid input for tool t:\n  /a: x\n  /b: y"},
		{modapi.Outcome{Status: modapi.StatusFailed, Error: "disk on fire"}, "disk on fire"},
		{modapi.Outcome{Status: modapi.StatusFailed}, "tool t failed without a message"},
	}
	for _, tt := range tests {
		if got := tt.o.Message("t"); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func TestSlashText(t *testing.T) {
	t.Parallel()
	if got := modapi.SlashText(" \t many  words \n"); got != "many  words" {
		t.Errorf("got %q, want %q", got, "many  words")
	}
}

func TestApply(t *testing.T) {
	t.Parallel()
	var s sdk.ActivityState
	steps := []struct {
		u    sdk.ActivityUpdate
		want bool
	}{
		{sdk.ActivityUpdate{Kind: sdk.ActivityTitle, Text: ""}, false},
		{sdk.ActivityUpdate{Kind: sdk.ActivityTitle, Text: "first"}, true},
		{sdk.ActivityUpdate{Kind: sdk.ActivityTitle, Text: "second"}, false},
		{sdk.ActivityUpdate{Kind: sdk.ActivityStatus, Text: "one"}, true},
		{sdk.ActivityUpdate{Kind: sdk.ActivityStatus, Text: "two"}, true},
		{sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "a"}, true},
		{sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "b"}, true},
		{sdk.ActivityUpdate{Kind: "sparkle", Text: "x"}, false},
	}
	for i, st := range steps {
		if _, got := modapi.Apply(&s, st.u); got != st.want {
			t.Errorf("step %d (%+v): got %v, want %v", i, st.u, got, st.want)
		}
	}
	if s.Title != "first" || s.Status != "two" || len(s.Log) != 2 || s.Log[1] != (sdk.LogEntry{Seq: 2, Message: "b"}) {
		t.Errorf("got %+v, want title first, status two, two numbered entries", s)
	}
	s.Ended = true
	if _, ok := modapi.Apply(&s, sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "late"}); ok || len(s.Log) != 2 {
		t.Errorf("after the end: got %+v, want nothing changed", s)
	}
}

// An Applier applies what Apply does, update by update, to a log that
// grows by its updates, by entries appended from outside, or starts again.
func TestApplier(t *testing.T) {
	t.Parallel()
	var a modapi.Applier
	var with, without sdk.ActivityState
	step := func(u sdk.ActivityUpdate) {
		gotU, gotOK := a.Apply(&with, u)
		wantU, wantOK := modapi.Apply(&without, u)
		if gotU != wantU || gotOK != wantOK {
			t.Fatalf("%+v: got %+v %v, want %+v %v", u, gotU, gotOK, wantU, wantOK)
		}
	}
	kinds := []sdk.ActivityKind{sdk.ActivityLog, sdk.ActivityStatus, sdk.ActivityLog, sdk.ActivityTitle, "other"}
	for i := range 1500 {
		step(sdk.ActivityUpdate{Kind: kinds[i%len(kinds)], Text: strings.Repeat("y", 1+i*37%5000)})
		if i == 100 {
			// Entries appended from outside count too.
			e := sdk.LogEntry{Seq: len(with.Log) + 1, Message: strings.Repeat("z", 4000)}
			with.Log, without.Log = append(with.Log, e), append(without.Log, e)
		}
		if i == 150 {
			// A log started again is counted again.
			with.Log, without.Log = with.Log[:3], without.Log[:3]
		}
	}
	if !slices.Equal(with.Log, without.Log) || with.Title != without.Title || with.Status != without.Status {
		t.Errorf("got a log of %d entries, title %.8q, status %.8q; want %d, %.8q, %.8q",
			len(with.Log), with.Title, with.Status, len(without.Log), without.Title, without.Status)
	}
	if last := with.Log[len(with.Log)-1]; last.Message != limits.LogTruncated {
		t.Errorf("got last entry %.20q, want the truncation's: the updates pass the byte limit", last.Message)
	}
}

// A batch of log entries, room made for it first, leaves the log as
// applying them alone does.
func TestReserve(t *testing.T) {
	t.Parallel()
	apply := func(s *sdk.ActivityState, reserve bool, n int) {
		if reserve {
			modapi.Reserve(s, n)
		}
		for i := range n {
			modapi.Apply(s, sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: strings.Repeat("x", i+1)})
		}
	}
	for _, n := range []int{0, 1, 8, 9, 10, 40, 1100} {
		var with, without sdk.ActivityState
		apply(&with, true, n)
		apply(&without, false, n)
		if (with.Log == nil) != (without.Log == nil) || !slices.Equal(with.Log, without.Log) {
			t.Errorf("%d entries: got a log of %d (nil %v), want %d (nil %v)", n, len(with.Log), with.Log == nil, len(without.Log), without.Log == nil)
		}
		// One more batch, on a log that has entries (and, past the
		// limits, ends in the truncation's entry).
		apply(&with, true, 20)
		apply(&without, false, 20)
		if !slices.Equal(with.Log, without.Log) {
			t.Errorf("%d then 20 entries: got a log of %d, want %d", n, len(with.Log), len(without.Log))
		}
	}
	// An ended call's log, and a nil one, get no room.
	s := sdk.ActivityState{Ended: true}
	modapi.Reserve(&s, 20)
	if s.Log != nil {
		t.Errorf("ended: got a log of capacity %d, want nil", cap(s.Log))
	}
	s = sdk.ActivityState{}
	modapi.Reserve(&s, 3)
	if s.Log != nil {
		t.Errorf("3 entries: got a log of capacity %d, want nil until Apply makes it", cap(s.Log))
	}
}

func TestReserveAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector adds allocations")
	}
	u := sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "step"}
	for _, reserve := range []bool{false, true} {
		got := testing.AllocsPerRun(100, func() {
			var s sdk.ActivityState
			if reserve {
				modapi.Reserve(&s, 10)
			}
			for range 10 {
				modapi.Apply(&s, u)
			}
		})
		want := 2.0 // the first 8 entries' room, then twice that
		if reserve {
			want = 1
		}
		if got != want {
			t.Errorf("10 entries, room made %v: got %v allocations, want %v", reserve, got, want)
		}
	}
}

// BenchmarkApplyBatch applies a live call's ten log entries, as the host
// does for a frame of them, with and without making room first:
//
//	go test ./internal/modapi -run '^$' -bench ApplyBatch -benchmem
func BenchmarkApplyBatch(b *testing.B) {
	u := sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "step"}
	for _, reserve := range []bool{false, true} {
		b.Run(fmt.Sprintf("room=%v", reserve), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var s sdk.ActivityState
				var a modapi.Applier
				if reserve {
					modapi.Reserve(&s, 10)
				}
				for range 10 {
					a.Apply(&s, u)
				}
			}
		})
	}
}

// BenchmarkApplyLog applies a call's log entries up to the entry limit, as
// the host does, one update at a time: with Apply, which counts the log
// again for each, and with an Applier, which counts each entry once:
//
//	go test ./internal/modapi -run '^$' -bench ApplyLog -benchmem
func BenchmarkApplyLog(b *testing.B) {
	u := sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "step"}
	for _, applier := range []bool{false, true} {
		b.Run(fmt.Sprintf("applier=%v", applier), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var s sdk.ActivityState
				var a modapi.Applier
				for range limits.MaxLogEntries {
					if applier {
						a.Apply(&s, u)
					} else {
						modapi.Apply(&s, u)
					}
				}
			}
		})
	}
}

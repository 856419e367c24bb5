package sdk

import "github.com/modkit/modkit/internal/limits"

// ActivityKind is the kind of an activity update.
type ActivityKind string

// The three kinds of activity update.
const (
	// ActivityTitle sets the title; the first title wins.
	ActivityTitle ActivityKind = "title"
	// ActivityStatus replaces the current status.
	ActivityStatus ActivityKind = "status"
	// ActivityLog appends an ordered log entry.
	ActivityLog ActivityKind = "log"
)

// ActivityUpdate is one update a handler sends while it runs.
type ActivityUpdate struct {
	Kind ActivityKind
	Text string
}

// LogEntry is one log line with its host-assigned sequence number, from 1.
type LogEntry struct {
	Seq     int    `json:"seq"`
	Message string `json:"message"`
}

// ActivityState is a call's activity with the rules applied: the first title
// wins, a status replaces the one before, log entries are numbered in order,
// and nothing changes once the call has ended.
//
// Activity is bounded: a title, status or log text keeps its first 4 KiB,
// and the log its first 1000 entries and 1 MiB, then one last entry says
// "log truncated: …" and later entries are dropped. The zero value is ready
// to use; it is not safe for concurrent use.
type ActivityState struct {
	Title  string     `json:"title"`
	Status string     `json:"status"`
	Log    []LogEntry `json:"log"`
	ended  bool
	budget logBudget
}

// Apply applies one update and reports whether it changed the state. For a
// log update the new entry is the last of Log.
func (s *ActivityState) Apply(u ActivityUpdate) bool {
	_, ok := s.Accept(u)
	return ok
}

// Accept is Apply returning the update as applied: its text cut to the
// limit, or for the first log entry past the log's limits, the entry saying
// the log was truncated.
func (s *ActivityState) Accept(u ActivityUpdate) (ActivityUpdate, bool) {
	if s.ended {
		return u, false
	}
	u.Text = limits.Cut(u.Text, limits.MaxActivityText)
	switch u.Kind {
	case ActivityTitle:
		if s.Title != "" || u.Text == "" {
			return u, false
		}
		s.Title = u.Text
	case ActivityStatus:
		s.Status = u.Text
	case ActivityLog:
		var ok bool
		if u, ok = s.budget.admit(u); !ok {
			return u, false
		}
		s.Log = append(s.Log, LogEntry{Seq: len(s.Log) + 1, Message: u.Text})
	default:
		return u, false
	}
	return u, true
}

// logBudget counts a call's log entries and bytes against the limits.
type logBudget struct {
	entries, bytes int
	full           bool
}

// admit returns the log update u to keep, or limits.LogTruncated for the
// first one past the limits, and reports false for the ones after that.
func (b *logBudget) admit(u ActivityUpdate) (ActivityUpdate, bool) {
	if b.full {
		return u, false
	}
	if b.entries >= limits.MaxLogEntries || b.bytes+len(u.Text) > limits.MaxLogBytes {
		b.full = true
		return ActivityUpdate{Kind: ActivityLog, Text: limits.LogTruncated}, true
	}
	b.entries++
	b.bytes += len(u.Text)
	return u, true
}

// End marks the call completed, failed or cancelled: later updates are ignored.
func (s *ActivityState) End() { s.ended = true }

// Ended reports whether End was called.
func (s *ActivityState) Ended() bool { return s.ended }

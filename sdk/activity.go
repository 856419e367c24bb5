package sdk

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
// and nothing changes once the call has ended. The zero value is ready to use;
// it is not safe for concurrent use.
type ActivityState struct {
	Title  string     `json:"title"`
	Status string     `json:"status"`
	Log    []LogEntry `json:"log"`
	ended  bool
}

// Apply applies one update and reports whether it changed the state. For a
// log update the new entry is the last of Log.
func (s *ActivityState) Apply(u ActivityUpdate) bool {
	if s.ended {
		return false
	}
	switch u.Kind {
	case ActivityTitle:
		if s.Title != "" || u.Text == "" {
			return false
		}
		s.Title = u.Text
	case ActivityStatus:
		s.Status = u.Text
	case ActivityLog:
		s.Log = append(s.Log, LogEntry{Seq: len(s.Log) + 1, Message: u.Text})
	default:
		return false
	}
	return true
}

// End marks the call completed, failed or cancelled: later updates are ignored.
func (s *ActivityState) End() { s.ended = true }

// Ended reports whether End was called.
func (s *ActivityState) Ended() bool { return s.ended }

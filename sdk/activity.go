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

// ActivityState is a call's activity as a host shows it: the first title
// wins, a status replaces the one before, log entries are numbered in order,
// and nothing changes once the call has ended.
//
// Activity is bounded: a title, status or log text keeps its first 4 KiB,
// and the log its first 1000 entries and 1 MiB, then one last entry says
// "log truncated: …" and later entries are dropped.
type ActivityState struct {
	Title  string     `json:"title"`
	Status string     `json:"status"`
	Log    []LogEntry `json:"log"`
	// Ended is set once the call has completed, failed or been cancelled.
	Ended bool `json:"-"`
}

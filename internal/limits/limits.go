// Package limits holds the bounds modkit puts on the work one input or one
// call can cause, so that the sdk, generated validators, the mod's server
// and the host all apply the same numbers; internal/words words them.
//
// # Problems
//
// An invalid input reports at most [MaxProblems] problems; the rest are
// counted in a last line, "and 19950 more problems". A problem quotes at
// most [MaxEcho] bytes of an offending value and is at most
// [MaxProblemBytes] long; internal/words caps and joins lists by these
// numbers. A number written with more than [MaxNumberChars] characters is
// one problem, and nothing computes with it.
//
// # Activity
//
// A call's log keeps at most [MaxLogEntries] entries and [MaxLogBytes]
// bytes; then one last entry, [LogTruncated], says that later entries were
// dropped. A title, status or log text is cut to [MaxActivityText] bytes.
//
// # Messages
//
// The host takes a call's input up to a size (its Options.MaxRequestBytes,
// [DefaultRequestBytes] by default) and a result up to another
// ([DefaultResultBytes]). [MessageBytes] derives from the two the gRPC
// message limit both sides set, in both directions, so that a request the
// host accepts always reaches the mod.
package limits

import (
	"unicode/utf8"
)

const (
	// MaxProblems is how many problems an invalid-input message lists.
	MaxProblems = 50
	// MaxProblemBytes is the most bytes of one problem line.
	MaxProblemBytes = 1024
	// MaxEcho is the most bytes of an offending value a problem quotes.
	MaxEcho = 100
	// MaxNumberChars is the most characters a JSON number of an input may
	// be written with; a longer one is a problem, judged no further.
	MaxNumberChars = 1000

	// MaxLogEntries is how many log entries one call keeps.
	MaxLogEntries = 1000
	// MaxLogBytes is how many bytes of log text one call keeps.
	MaxLogBytes = 1 << 20
	// MaxActivityText is the most bytes of one title, status or log text.
	MaxActivityText = 4096
	// LogTruncated is the last log entry of a call whose log was cut.
	LogTruncated = "log truncated: a call keeps at most 1000 entries and 1 MiB of log; later entries were dropped"
)

const (
	// DefaultRequestBytes is the default size limit of a call's input.
	DefaultRequestBytes = 4 << 20
	// DefaultResultBytes is the default size limit of a call's result.
	DefaultResultBytes = 1 << 20
	// envelope is room for everything in a message besides input, result
	// and log: names, ids, the session, title and status.
	envelope = 256 << 10
)

// MessageBytes returns the gRPC message limit for a host taking requests
// of up to request bytes and results of up to result bytes: a view's
// request carries both, a call's one response carries the result with the
// whole activity.
func MessageBytes(request, result int) int {
	return request + result + MaxLogBytes + MaxLogEntries*16 + envelope
}

// Cut returns s cut to at most n bytes at a character boundary, with "…"
// appended when it was cut.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// LogBudget counts one call's log entries and bytes against MaxLogEntries
// and MaxLogBytes. The zero value is an empty log.
type LogBudget struct {
	// Entries and Bytes are what the log holds; Full, that it was cut.
	Entries, Bytes int
	Full           bool
}

// Admit returns the text to log for an entry of text: text itself while
// the log is within its limits, LogTruncated for the first entry past
// them, and false for every entry after that.
func (b *LogBudget) Admit(text string) (string, bool) {
	if b.Full {
		return "", false
	}
	if b.Entries >= MaxLogEntries || b.Bytes+len(text) > MaxLogBytes {
		b.Full = true
		return LogTruncated, true
	}
	b.Entries++
	b.Bytes += len(text)
	return text, true
}

package modapi

import (
	"slices"
	"strings"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk"
)

// DefaultMaxResultBytes is the result and message cap a host applies unless
// told otherwise, and the one sdk/modtest applies.
const DefaultMaxResultBytes = limits.DefaultResultBytes

// ResultSize is the size CapResult measures: the text, the typed result,
// each output's content, MIME type and URI, and each client action's kind
// and parameters.
func ResultSize(o *Outcome) int {
	size := len(o.Text) + len(o.Result)
	for _, out := range o.Outputs {
		size += len(out.Content) + len(out.MimeType) + len(out.URI)
	}
	for _, a := range o.Actions {
		size += len(a.Kind) + len(a.Params)
	}
	return size
}

// CapResult fails a completed outcome of tool whose result is over max
// bytes. A max of 0 or less means no cap.
func CapResult(tool string, o *Outcome, max int) {
	if max <= 0 || o.Status != StatusCompleted {
		return
	}
	if size := ResultSize(o); size > max {
		*o = Outcome{Status: StatusFailed, Error: words.ResultTooBig(tool, size, max)}
	}
}

// CapMessage returns the failure of a command (what names it: "command x",
// "slash command /x") whose message is over max bytes, or "" when it fits.
// A max of 0 or less means no cap.
func CapMessage(what, msg string, max int) string {
	if max <= 0 || len(msg) <= max {
		return ""
	}
	return words.MessageTooBig(what, len(msg), max)
}

// Message is why a failed call of tool failed, as the model reads it after
// "Tool failed: ".
func (o *Outcome) Message(tool string) string {
	switch {
	case len(o.Problems) > 0:
		return words.InvalidInput(tool, o.Problems)
	case o.Error != "":
		return o.Error
	default:
		return words.FailedSilently(tool)
	}
}

// SlashText is the text a slash command's handler receives from the text
// typed after "/id": without surrounding space.
func SlashText(typed string) string { return strings.TrimSpace(typed) }

// Apply applies one activity update to s by the activity rules and returns
// it as applied, reporting whether it changed s: the first non-empty title
// wins, a status replaces the one before, a log entry is numbered from 1
// and is then the last of s.Log, and nothing changes once s has ended.
// Texts are cut to limits.MaxActivityText; past the log's limits the entry
// applied is limits.LogTruncated, once, and later ones are dropped.
//
// Apply counts s's log against its limits on every call; an Applier counts
// each entry once.
func Apply(s *sdk.ActivityState, u sdk.ActivityUpdate) (sdk.ActivityUpdate, bool) {
	var a Applier
	return a.Apply(s, u)
}

// Applier applies a call's updates as Apply does, remembering what the
// log's entries weigh against its limits from one update to the next:
// each update costs the same however long the log, where Apply counts the
// whole log again. The log must change only by entries appended (by
// Apply, or by whatever else); a log that shrank is counted again. The
// zero value is ready to use.
type Applier struct {
	counted int // the entries of the log counted in bytes
	bytes   int // the bytes of their messages
}

// Apply is the package's Apply, for the log a remembers.
func (a *Applier) Apply(s *sdk.ActivityState, u sdk.ActivityUpdate) (sdk.ActivityUpdate, bool) {
	if s.Ended {
		return u, false
	}
	u.Text = limits.Cut(u.Text, limits.MaxActivityText)
	switch u.Kind {
	case sdk.ActivityTitle:
		if s.Title != "" || u.Text == "" {
			return u, false
		}
		s.Title = u.Text
	case sdk.ActivityStatus:
		s.Status = u.Text
	case sdk.ActivityLog:
		b := a.budget(s)
		var ok bool
		if u.Text, ok = b.Admit(u.Text); !ok {
			return u, false
		}
		if s.Log == nil {
			// A call that logs often logs a few times: room for them
			// in one allocation, where growing from none takes four.
			s.Log = make([]sdk.LogEntry, 0, firstLogCap)
		}
		s.Log = append(s.Log, sdk.LogEntry{Seq: len(s.Log) + 1, Message: u.Text})
	default:
		return u, false
	}
	return u, true
}

// budget is what s's log has used of its limits, counting only the
// entries appended since a last counted.
func (a *Applier) budget(s *sdk.ActivityState) limits.LogBudget {
	if len(s.Log) < a.counted {
		*a = Applier{}
	}
	for _, e := range s.Log[a.counted:] {
		a.bytes += len(e.Message)
	}
	a.counted = len(s.Log)
	return limits.LogBudget{
		Entries: len(s.Log),
		Bytes:   a.bytes,
		Full:    len(s.Log) > 0 && s.Log[len(s.Log)-1].Message == limits.LogTruncated,
	}
}

// firstLogCap is the capacity of a log's first allocation.
const firstLogCap = 8

// Reserve makes room in s's log for n more entries, which arrived
// together and are applied next, one by one: a batch grows the log once,
// where appending them one by one would grow it again past firstLogCap.
// What Apply then keeps is the same.
func Reserve(s *sdk.ActivityState, n int) {
	// Past the entries the limits keep (and the last, LogTruncated),
	// Apply appends none. A log that is nil stays nil below firstLogCap
	// entries: Apply makes it, as it would without this.
	n = min(n, limits.MaxLogEntries+1-len(s.Log))
	full := len(s.Log) > 0 && s.Log[len(s.Log)-1].Message == limits.LogTruncated
	if s.Ended || full || n <= 0 || len(s.Log)+n <= max(cap(s.Log), firstLogCap) {
		return
	}
	s.Log = slices.Grow(s.Log, n)
}

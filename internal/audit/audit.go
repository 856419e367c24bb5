package audit

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os/user"
	"sync"
	"time"
)

// Outcomes of a request.
const (
	Completed = "completed"
	Failed    = "failed"
	Cancelled = "cancelled"
	Denied    = "denied"
	// Refused is a request turned away before it ran: no valid token
	// (401), a scope it lacks (403), over its rate (429).
	Refused = "refused"
	// Asking is a call that asks its client questions before it goes on
	// (MCP 2026-07-28's input_required): the client calls again.
	Asking = "asking"
)

// Transports a request comes by.
const (
	HTTP  = "http"
	Stdio = "stdio"
	CLI   = "cli"
)

// Approval decisions.
const (
	Approved  = "approved"
	Declined  = "declined"
	Dismissed = "dismissed" // the person cancelled the question
	Pending   = "pending"   // asked, not answered yet
)

// Record is one line of the audit log.
type Record struct {
	// Time is when the request arrived.
	Time time.Time `json:"time"`
	// Principal is who asked.
	Principal Principal `json:"principal"`
	// Transport is HTTP, Stdio or CLI.
	Transport string `json:"transport"`
	// Remote is an HTTP client's address, as the server saw it.
	Remote string `json:"remote_addr,omitempty"`
	// Method is the MCP method (tools/call, prompts/get, resources/read,
	// tasks/get, …), or the CLI's command (call, command).
	Method string `json:"method"`
	// Tool, Prompt, URI, Task and Command name what the method is about.
	Tool    string `json:"tool,omitempty"`
	Command string `json:"command,omitempty"`
	Prompt  string `json:"prompt,omitempty"`
	URI     string `json:"uri,omitempty"`
	Task    string `json:"task,omitempty"`
	// ArgumentsSHA256 is the hex SHA-256 of the arguments as the client
	// wrote them; empty when there were none.
	ArgumentsSHA256 string `json:"arguments_sha256,omitempty"`
	// Arguments are the arguments themselves, only with
	// Options.Arguments.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// Outcome is Completed, Failed, Cancelled, Denied, Refused or Asking.
	Outcome string `json:"outcome"`
	// Status is the HTTP status of a refused request.
	Status int `json:"status,omitempty"`
	// Approval is the person's decision, when the call asked for one.
	Approval *Approval `json:"approval,omitempty"`
	// DurationMS is how long the request took, in milliseconds.
	DurationMS float64 `json:"duration_ms"`
	// TraceID is the request's trace, when tracing is on.
	TraceID string `json:"trace_id,omitempty"`
	// Replica names the server that served the request (Options.Replica).
	Replica string `json:"replica,omitempty"`
}

// Principal is who made a request: an access token's subject and
// client, or the local user ("local:NAME") over stdio and the CLI.
type Principal struct {
	Sub      string `json:"sub"`
	ClientID string `json:"client_id,omitempty"`
}

// Approval is a person's decision on a call that asked for it.
type Approval struct {
	// Reason is what they were asked to approve.
	Reason string `json:"reason"`
	// Decision is Approved, Declined, Dismissed or Pending; empty when
	// the call ended otherwise before an answer was seen.
	Decision string `json:"decision"`
}

// SetArguments records args: their SHA-256, and with withValues the
// values too.
func (r *Record) SetArguments(args []byte, withValues bool) {
	if len(args) == 0 || string(args) == "null" {
		return
	}
	sum := sha256.Sum256(args)
	r.ArgumentsSHA256 = hex.EncodeToString(sum[:])
	if withValues && json.Valid(args) {
		r.Arguments = json.RawMessage(args)
	}
}

// Finish sets the duration from the record's time to now.
func (r *Record) Finish() {
	r.DurationMS = float64(time.Since(r.Time).Microseconds()) / 1000
}

// LocalPrincipal is the user running this process, as "local:NAME" (or
// "local:uid:N" when the name cannot be found), looked up once.
func LocalPrincipal() Principal { return localPrincipal() }

var localPrincipal = sync.OnceValue(func() Principal {
	u, err := user.Current()
	switch {
	case err == nil && u.Username != "":
		return Principal{Sub: "local:" + u.Username}
	case err == nil:
		return Principal{Sub: "local:uid:" + u.Uid}
	}
	return Principal{Sub: "local:unknown"}
})

type noteKey struct{}

// Note is what the code that runs a call tells the log about it, through
// the context: how it ended and the approval asked.
type Note struct {
	Outcome  string
	Approval *Approval
}

// WithNote returns ctx carrying n, for [NoteFrom].
func WithNote(ctx context.Context, n *Note) context.Context {
	return context.WithValue(ctx, noteKey{}, n)
}

// NoteFrom returns the note of ctx, or nil when the request is not
// audited.
func NoteFrom(ctx context.Context) *Note {
	n, _ := ctx.Value(noteKey{}).(*Note)
	return n
}

// ReadRecords reads back the records of a log, one JSON line each.
func ReadRecords(r io.Reader) ([]Record, error) {
	var recs []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return recs, fmt.Errorf("audit log line %d: %w", n, err)
		}
		recs = append(recs, rec)
	}
	return recs, sc.Err()
}

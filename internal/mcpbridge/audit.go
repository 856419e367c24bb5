package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/trace"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/audit"
	"github.com/modkit/modkit/internal/mcpauth"
)

// auditedMethods are the methods that reach a tool, a prompt, a resource
// or a task: each request of one is a record of Options.Audit.
var auditedMethods = map[string]bool{
	"tools/call": true, "prompts/get": true,
	"resources/read": true, "resources/subscribe": true, "resources/unsubscribe": true,
	"tasks/get": true, "tasks/update": true, "tasks/cancel": true,
}

// httpCallerKey is the context key of an HTTP request's client address,
// which the HTTP handler sets: a request without one came over stdio.
type httpCallerKey struct{}

// withHTTPCaller returns ctx marked as an HTTP request's from remote.
func withHTTPCaller(ctx context.Context, remote string) context.Context {
	return context.WithValue(ctx, httpCallerKey{}, remote)
}

// newRecord starts the record of a request for method that arrived now,
// with its principal and transport read from ctx: an access token's
// subject and client over HTTP, the local user over stdio.
func newRecord(ctx context.Context, method string) *audit.Record {
	r := &audit.Record{Time: time.Now(), Method: method, Transport: audit.Stdio}
	if remote, ok := ctx.Value(httpCallerKey{}).(string); ok {
		r.Transport = audit.HTTP
		r.Remote = remote
	}
	switch p := mcpauth.PrincipalFrom(ctx); {
	case p != nil:
		r.Principal = audit.Principal{Sub: p.Subject, ClientID: p.ClientID}
	case r.Transport == audit.Stdio:
		r.Principal = audit.LocalPrincipal()
	}
	return r
}

// traceID returns the trace of ctx's span, or "".
func traceID(ctx context.Context) string {
	if sc := trace.SpanContextFromContext(ctx); sc.HasTraceID() {
		return sc.TraceID().String()
	}
	return ""
}

// auditRequests is the receiving middleware that writes a record of
// every request of an audited method to Options.Audit. It runs inside
// observe, so that the record carries the request's trace.
func (br *bridge) auditRequests(next mcp.MethodHandler) mcp.MethodHandler {
	log := br.opts.Audit
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !auditedMethods[method] {
			return next(ctx, method, req)
		}
		rec := newRecord(ctx, method)
		switch p := req.GetParams().(type) {
		case *mcp.CallToolParamsRaw:
			rec.Tool = p.Name
			rec.SetArguments(p.Arguments, log.Arguments())
		case *mcp.GetPromptParams:
			rec.Prompt = p.Name
			if len(p.Arguments) > 0 {
				args, _ := json.Marshal(p.Arguments)
				rec.SetArguments(args, log.Arguments())
			}
		case *mcp.ReadResourceParams:
			rec.URI = p.URI
		case *mcp.SubscribeParams:
			rec.URI = p.URI
		case *mcp.UnsubscribeParams:
			rec.URI = p.URI
		}
		note := &audit.Note{}
		res, err := next(audit.WithNote(ctx, note), method, req)
		rec.Outcome, rec.Approval = note.Outcome, note.Approval
		if rec.Outcome == "" {
			rec.Outcome = outcomeOf(ctx, res, err)
		}
		rec.TraceID = traceID(ctx)
		rec.Finish()
		log.Write(rec)
		return res, err
	}
}

// outcomeOf is how a request that answered res and err ended.
func outcomeOf(ctx context.Context, res mcp.Result, err error) string {
	var werr *jsonrpc.Error
	switch {
	case errors.As(err, &werr) && werr.Code == mcpauth.CodeUnauthorized:
		return audit.Refused
	case err != nil && ctx.Err() != nil:
		return audit.Cancelled
	case err != nil:
		return audit.Failed
	}
	if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
		return audit.Failed
	}
	return audit.Completed
}

// noteCall tells the audit log, when the request is audited, how the
// call that returned res and err ended, and what the person decided when
// it asked for approval.
func noteCall(ctx context.Context, res *host.CallResult, err error) {
	note := audit.NoteFrom(ctx)
	if note == nil {
		return
	}
	switch {
	case err != nil && errors.Is(err, host.ErrClosed):
		note.Outcome = audit.Cancelled
	case err != nil:
		note.Outcome = audit.Failed
	default:
		note.Outcome = string(res.Status) // the outcomes are the statuses' words
	}
	// An answer the call did not ask for (it needed no approval, or ended
	// before) is no decision.
	if err != nil || res.ApprovalReason == "" {
		note.Approval = nil
		return
	}
	if note.Approval == nil {
		note.Approval = &audit.Approval{}
	}
	note.Approval.Reason = res.ApprovalReason
	if note.Approval.Decision == "" {
		note.Approval.Decision = decisionOf(res.Status)
	}
}

// decisionOf is the approval decision a call's status tells when no
// answer was seen: it ran, so it was approved; it was denied; or the
// person was asked and has not answered yet.
func decisionOf(s host.Status) string {
	switch s {
	case host.StatusDenied:
		return audit.Declined
	case host.StatusAsking:
		return audit.Pending
	case host.StatusCompleted:
		return audit.Approved
	}
	return ""
}

// noteApproval records the person's answer to a call's approval
// question: an answer given ahead (a 2026-07-28 client's
// inputResponses), or one an asker got.
func noteApproval(ctx context.Context, q host.Question, answer json.RawMessage) {
	note := audit.NoteFrom(ctx)
	if note == nil || q.Key != host.ApprovalKey {
		return
	}
	var a struct {
		Action string `json:"action"`
	}
	json.Unmarshal(answer, &a)
	d := audit.Dismissed
	switch a.Action {
	case "accept":
		d = audit.Approved
	case "decline":
		d = audit.Declined
	}
	note.Approval = &audit.Approval{Decision: d}
}

// auditAsker is an asker that notes the answer to the approval question.
type auditAsker struct {
	*mcpAsker
	ctx context.Context
}

func (a auditAsker) Ask(ctx context.Context, q *host.Question) (json.RawMessage, error) {
	answer, err := a.mcpAsker.Ask(ctx, q)
	if err == nil {
		noteApproval(a.ctx, *q, answer)
	}
	return answer, err
}

// refusedRecord is the record of a request the HTTP handler refused with
// status before it reached the server: m is the message as checkBody
// read it, body the request's body.
func refusedRecord(req *http.Request, m *httpMessage, body []byte, status int, start time.Time, withArgs bool) *audit.Record {
	rec := newRecord(withHTTPCaller(req.Context(), req.RemoteAddr), m.Method)
	rec.Time = start
	rec.Outcome, rec.Status = audit.Refused, status
	describe(rec, m, body, withArgs)
	rec.TraceID = traceID(req.Context())
	rec.Finish()
	return rec
}

// describe names in rec what the message m (of body) is about: its tool,
// prompt, resource or task, and its arguments.
func describe(rec *audit.Record, m *httpMessage, body []byte, withArgs bool) {
	raw := m.params
	if raw == nil {
		raw = m.rawParams(body)
	}
	var p struct {
		Name      string          `json:"name"`
		URI       string          `json:"uri"`
		TaskID    string          `json:"taskId"`
		Arguments json.RawMessage `json:"arguments"`
	}
	json.Unmarshal(raw, &p)
	switch m.Method {
	case "tools/call":
		rec.Tool = p.Name
	case "prompts/get":
		rec.Prompt = p.Name
	}
	rec.URI, rec.Task = p.URI, p.TaskID
	rec.SetArguments(p.Arguments, withArgs)
}

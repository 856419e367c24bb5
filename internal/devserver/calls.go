package devserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// maxCalls is how many calls the history keeps; the oldest ended ones go
// first.
const maxCalls = 500

// call is one tool call of the session: its request, its events as the
// page receives them, and its outcome.
type call struct {
	id, tool, agent string
	input           json.RawMessage
	started         time.Time
	cancel          context.CancelFunc
	trace           trace.TraceID // its spans' trace, when the server keeps spans

	mu      sync.Mutex
	events  []sseEvent
	changed chan struct{} // closed and replaced on every event
	out     *outcomeJSON

	// approval is the person's answer when the tool asks for approval.
	approval approvalBox
	// client is the page's answer when the tool runs only in a client.
	client clientBox
	// questions is the person's answer when the tool's handler asks.
	questions questionBox
}

type sseEvent struct {
	name string
	data []byte
}

// activityJSON is an "activity" event: one update as the host applied it.
type activityJSON struct {
	Kind   sdk.ActivityKind `json:"kind"`
	Text   string           `json:"text"`
	Seq    int              `json:"seq,omitempty"`
	Title  string           `json:"title"`
	Status string           `json:"status"`
	// ElapsedMS is the time since the call started.
	ElapsedMS int64 `json:"elapsedMs"`
	// AtMS is when the host received the update, in milliseconds since
	// the Unix epoch: a page on the same machine measures its latency.
	AtMS float64 `json:"atMs"`
}

// outcomeJSON is the "outcome" event, the call's last.
type outcomeJSON struct {
	// Status is completed, failed, cancelled, denied, or refused when no call
	// happened (an agent's allowlist, an unknown tool).
	Status    string            `json:"status"`
	CallID    string            `json:"callId,omitempty"`
	Text      string            `json:"text"`
	Result    json.RawMessage   `json:"result,omitempty"`
	Outputs   []outputJSON      `json:"outputs"`
	Error     string            `json:"error,omitempty"`
	Activity  sdk.ActivityState `json:"activity"`
	ElapsedMS int64             `json:"elapsedMs"`
	// ClientActions are the call's client actions, shown, not taken.
	ClientActions []sdk.ClientAction `json:"clientActions,omitempty"`
	// ApprovalReason is what the person was asked to approve, if anything.
	ApprovalReason string `json:"approvalReason,omitempty"`
	// MCP is the tools/call result modhost mcp would give a client; none
	// for a tool it does not offer.
	MCP json.RawMessage `json:"mcp,omitempty"`
	// Traced says the call's spans are at /api/calls/{id}/spans.
	Traced bool `json:"traced,omitempty"`
}

type outputJSON struct {
	MimeType string `json:"mimeType"`
	Content  string `json:"content"`
	URI      string `json:"uri,omitempty"`
}

// callSummary is a call as the history lists it.
type callSummary struct {
	ID        string          `json:"id"`
	Tool      string          `json:"tool"`
	Agent     string          `json:"agent,omitempty"`
	Input     json.RawMessage `json:"input"`
	Started   time.Time       `json:"started"`
	Status    string          `json:"status"` // "running" until the outcome
	ElapsedMS int64           `json:"elapsedMs,omitempty"`
	Outcome   *outcomeJSON    `json:"outcome,omitempty"`
}

func (c *call) summary() *callSummary {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs := &callSummary{ID: c.id, Tool: c.tool, Agent: c.agent, Input: c.input, Started: c.started, Status: "running"}
	if c.out != nil {
		cs.Status, cs.ElapsedMS = c.out.Status, c.out.ElapsedMS
	}
	return cs
}

// add records an event; with the outcome, last, it also ends the call, at
// once, so that a reader never sees the call ended without its outcome.
func (c *call) add(name string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	c.mu.Lock()
	c.events = append(c.events, sseEvent{name, data})
	if out, ok := v.(*outcomeJSON); ok {
		c.out = out
	}
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

func (c *call) elapsed() int64 { return time.Since(c.started).Milliseconds() }

func (s *Server) startCall(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Tool  string          `json:"tool"`
		Input json.RawMessage `json:"input"`
		Agent string          `json:"agent"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	if len(req.Input) == 0 {
		req.Input = json.RawMessage("{}")
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &call{tool: req.Tool, agent: req.Agent, input: req.Input, started: time.Now(), cancel: cancel, changed: make(chan struct{})}
	h, done := s.host()
	s.mu.Lock()
	s.next++
	c.id = strconv.Itoa(s.next)
	s.calls[c.id] = c
	s.order = append(s.order, c)
	s.trimCalls()
	s.publish("call")
	s.mu.Unlock()
	go func() {
		defer done()
		defer cancel()
		out := s.run(ctx, h, c)
		// The outcome and the event that the call ended go out together:
		// whoever sees the one sees the state with the other.
		s.mu.Lock()
		c.add("outcome", out)
		s.publish("call")
		s.mu.Unlock()
	}()
	writeJSON(w, http.StatusAccepted, c.summary())
}

// trimCalls drops the oldest ended calls over maxCalls. s.mu must be held.
func (s *Server) trimCalls() {
	for i := 0; len(s.order) > maxCalls && i < len(s.order); {
		c := s.order[i]
		c.mu.Lock()
		ended := c.out != nil
		c.mu.Unlock()
		if !ended {
			i++
			continue
		}
		delete(s.calls, c.id)
		s.order = append(s.order[:i], s.order[i+1:]...)
	}
}

// run makes the call, records its activity, and returns its outcome. The
// page answers a call of a tool only a client runs, as its client would.
func (s *Server) run(ctx context.Context, h *host.Host, c *call) *outcomeJSON {
	var client host.ClientHandlers
	if t, ok := toolOf(h, c.tool); ok && !t.Runs.InMod() {
		client = host.ClientHandlers{c.tool: c.answerAsClient}
	}
	ctx, endSpan := s.traceCall(ctx, c)
	res, err := h.Call(ctx, &host.CallRequest{
		Tool: c.tool, Input: c.input, Session: s.opts.Session, Caller: host.LocalCaller(nil), Agent: c.agent, Label: "dev call " + c.id,
		Approver: c.approve, Client: client,
		Asker: asker{c: c, workspace: s.opts.Session.Workspace},
		OnActivity: func(e host.ActivityEvent) {
			c.add("activity", activityJSON{Kind: e.Update.Kind, Text: e.Update.Text, Seq: e.Seq,
				Title: e.State.Title, Status: e.State.Status, ElapsedMS: c.elapsed(),
				AtMS: float64(time.Now().UnixMicro()) / 1000})
		},
	})
	endSpan()
	out := &outcomeJSON{Outputs: []outputJSON{}, ElapsedMS: c.elapsed(), Traced: c.trace.IsValid()}
	if err != nil {
		out.Status, out.Error = "refused", err.Error()
		if errors.Is(err, host.ErrNotAllowed) {
			out.Text = fmt.Sprintf("refused: %v", err)
		}
	} else {
		out.Status, out.CallID, out.Text, out.Result, out.Error, out.Activity =
			string(res.Status), res.CallID, res.Text, res.Result, res.Error, res.Activity
		for _, o := range res.Outputs {
			out.Outputs = append(out.Outputs, outputJSON{MimeType: o.MimeType, Content: o.Content, URI: o.URI})
		}
		out.ClientActions = res.Actions
		out.ApprovalReason = res.ApprovalReason
	}
	if out.Activity.Log == nil {
		out.Activity.Log = []sdk.LogEntry{}
	}
	out.MCP = mcpResult(h, c.tool, res, err)
	return out
}

func (s *Server) lookup(w http.ResponseWriter, r *http.Request) *call {
	s.mu.Lock()
	c := s.calls[r.PathValue("id")]
	s.mu.Unlock()
	if c == nil {
		writeError(w, http.StatusNotFound, fmt.Errorf("no call %q in this session", r.PathValue("id")))
	}
	return c
}

func (s *Server) listCalls(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	out := make([]*callSummary, 0, len(s.order))
	for _, c := range s.order {
		out = append(out, c.summary())
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getCall(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(w, r)
	if c == nil {
		return
	}
	cs := c.summary()
	c.mu.Lock()
	cs.Outcome = c.out
	c.mu.Unlock()
	writeJSON(w, http.StatusOK, cs)
}

// callEvents streams the call's events from the first, or after the one
// Last-Event-ID names, and ends after the outcome.
func (s *Server) callEvents(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(w, r)
	if c == nil {
		return
	}
	fl, ok := startSSE(w)
	if !ok {
		return
	}
	next := 0
	if id, err := strconv.Atoi(r.Header.Get("Last-Event-ID")); err == nil && id >= 0 {
		next = id + 1
	}
	for {
		c.mu.Lock()
		var evs []sseEvent
		if next < len(c.events) {
			evs = c.events[next:]
		}
		ended, changed := c.out != nil, c.changed
		c.mu.Unlock()
		for _, ev := range evs {
			fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", next, ev.name, ev.data)
			next++
		}
		if len(evs) > 0 {
			fl.Flush()
		}
		if ended && len(evs) == 0 {
			return
		}
		if ended {
			continue // the outcome may have been added after the copy
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		}
	}
}

func (s *Server) cancelCall(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(w, r)
	if c == nil {
		return
	}
	c.cancel()
	writeJSON(w, http.StatusAccepted, map[string]bool{"cancelled": true})
}

// view renders the call's tool's view for a phase, from the call's input
// and outcome.
func (s *Server) view(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(w, r)
	if c == nil {
		return
	}
	var req struct {
		Phase sdk.Phase `json:"phase"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	st := sdk.RawViewState{Phase: req.Phase, Input: c.input}
	c.mu.Lock()
	if c.out != nil {
		st.Result, st.Error = c.out.Result, c.out.Error
	}
	c.mu.Unlock()
	h, done := s.host()
	defer done()
	html, err := h.RenderView(r.Context(), c.tool, st)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"html": html})
}

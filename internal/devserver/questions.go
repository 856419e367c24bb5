package devserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sync"

	"github.com/modkit/modkit/host"
)

// questionJSON is a "question" event: the tool's handler asks, and the
// call waits for the page's answer (POST /api/calls/{id}/question).
type questionJSON struct {
	Key  string            `json:"key"`
	Kind host.QuestionKind `json:"kind"`
	// Message, Schema and URL are a form's or URL question's; Params are
	// the question as the MCP request's params.
	Message string          `json:"message,omitempty"`
	Schema  json.RawMessage `json:"schema,omitempty"`
	URL     string          `json:"url,omitempty"`
	Params  json.RawMessage `json:"params"`
	// Refusal says why the last answer was refused.
	Refusal   string `json:"refusal,omitempty"`
	ElapsedMS int64  `json:"elapsedMs"`
}

// questionBox holds a call's question to the person while it waits.
type questionBox struct {
	mu     sync.Mutex
	key    string // the question waiting, "" when none
	answer chan json.RawMessage
}

// asker is a call's host.Asker: the page answers forms, URL questions and,
// for the client's model, samples; the roots are the session's workspace.
type asker struct {
	c         *call
	workspace string
}

// CanAsk implements host.Asker.
func (a asker) CanAsk(kind host.QuestionKind) bool {
	return kind != host.AskRoots || a.workspace != ""
}

// Ask implements host.Asker: it shows the question in the page and waits
// for the answer, or for the call to end.
func (a asker) Ask(ctx context.Context, q *host.Question) (json.RawMessage, error) {
	if q.Kind == host.AskRoots {
		u := url.URL{Scheme: "file", Path: a.workspace}
		return json.Marshal(map[string]any{"roots": []map[string]string{{"uri": u.String(), "name": "workspace"}}})
	}
	b := &a.c.questions
	b.mu.Lock()
	if b.answer == nil {
		b.answer = make(chan json.RawMessage, 1)
	}
	b.key = q.Key
	answer := b.answer
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		b.key = ""
		b.mu.Unlock()
	}()
	a.c.add("question", questionJSON{Key: q.Key, Kind: q.Kind, Message: q.Message, Schema: q.Schema, URL: q.URL,
		Params: q.Params, Refusal: q.Refusal, ElapsedMS: a.c.elapsed()})
	select {
	case ans := <-answer:
		a.c.add("answered", map[string]string{"key": q.Key})
		return ans, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// answerQuestion takes the page's answer to the question a call waits on:
// {"key": "...", "answer": {...}}, the answer shaped as the MCP result
// ({"action":"accept","content":{…}} for a form). The host judges it, and
// asks again when it does not fit.
func (s *Server) answerQuestion(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(w, r)
	if c == nil {
		return
	}
	var req struct {
		Key    string          `json:"key"`
		Answer json.RawMessage `json:"answer"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	b := &c.questions
	b.mu.Lock()
	waiting := b.key
	if waiting != "" && waiting == req.Key {
		b.key = "" // one answer per question
		b.answer <- req.Answer
	}
	b.mu.Unlock()
	switch {
	case waiting == "":
		writeError(w, http.StatusConflict, fmt.Errorf("call %s is not waiting for an answer", c.id))
	case waiting != req.Key:
		writeError(w, http.StatusConflict, fmt.Errorf("call %s waits for an answer to question %q, not %q", c.id, waiting, req.Key))
	default:
		writeJSON(w, http.StatusAccepted, map[string]string{"key": req.Key})
	}
}

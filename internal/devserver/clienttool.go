package devserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// clientAskJSON is a "client" event: the call of a tool only a client
// application runs waits for the person to answer it in the page, as its
// client would.
type clientAskJSON struct {
	ElapsedMS int64 `json:"elapsedMs"`
}

// clientBox holds the call a client-only tool's handler waits on.
type clientBox struct {
	mu       sync.Mutex
	call     *host.ClientCall // while the host waits for the answer
	answered bool
}

// answerAsClient is the call's host.ClientHandler: it tells the page and
// waits, until the call ends, for POST /api/calls/{id}/answer.
func (c *call) answerAsClient(cc *host.ClientCall) {
	b := &c.client
	b.mu.Lock()
	b.call = cc
	b.mu.Unlock()
	c.add("client", clientAskJSON{ElapsedMS: c.elapsed()})
	<-cc.Context().Done()
	b.mu.Lock()
	b.call = nil
	b.mu.Unlock()
}

// clientAnswerJSON is the page's answer to a client-only tool's call, as
// sdk.ClientAnswer has it: text for the model and a rendered tool's
// result, or an error.
type clientAnswerJSON struct {
	Text   string          `json:"text"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// answerClient gives the call's one answer; 409 when the call waits for
// none, or was answered already.
func (s *Server) answerClient(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(w, r)
	if c == nil {
		return
	}
	var req clientAnswerJSON
	if !readJSON(w, r, &req) {
		return
	}
	b := &c.client
	b.mu.Lock()
	cc, answered := b.call, b.answered
	if cc != nil && cc.Context().Err() != nil {
		cc = nil // the call ended; its handler has not yet seen it
	}
	if cc != nil && !answered {
		b.answered = true
		// Recorded before the handler has the answer, so that the call's
		// outcome, which may follow at once, comes after it.
		c.add("clientAnswered", req)
		cc.Reply(sdk.ClientAnswer{Text: req.Text, Result: req.Result, Error: req.Error})
	}
	b.mu.Unlock()
	switch {
	case answered:
		writeError(w, http.StatusConflict, fmt.Errorf("call %s was answered already: a client gives one answer per call", c.id))
	case cc == nil:
		writeError(w, http.StatusConflict, fmt.Errorf("call %s is not waiting for a client's answer", c.id))
	default:
		writeJSON(w, http.StatusAccepted, map[string]bool{"answered": true})
	}
}

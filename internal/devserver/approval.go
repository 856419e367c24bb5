package devserver

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/modkit/modkit/host"
)

// approvalJSON is an "approval" event: the call waits for the person to
// approve or deny it in the page.
type approvalJSON struct {
	// Reason is the mod's; Question is what the page asks, reason included.
	Reason    string `json:"reason"`
	Question  string `json:"question"`
	ElapsedMS int64  `json:"elapsedMs"`
}

// approvalBox holds a call's question to the person while it waits.
type approvalBox struct {
	mu      sync.Mutex
	waiting bool
	answer  chan bool // buffered: the page's answer never blocks
}

// approve is the call's host.Approver: it asks the page and waits for
// POST /api/calls/{id}/approval, or for the call to end.
func (c *call) approve(ctx context.Context, req *host.ApprovalRequest) (bool, error) {
	b := &c.approval
	b.mu.Lock()
	if b.answer == nil {
		b.answer = make(chan bool, 1)
	}
	b.waiting = true
	answer := b.answer
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		b.waiting = false
		b.mu.Unlock()
	}()
	c.add("approval", approvalJSON{Reason: req.Reason, Question: req.Question(), ElapsedMS: c.elapsed()})
	select {
	case ok := <-answer:
		c.add("answered", map[string]bool{"approve": ok})
		return ok, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// answerApproval takes the person's answer, {"approve": bool}, to a call
// waiting for it.
func (s *Server) answerApproval(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(w, r)
	if c == nil {
		return
	}
	var req struct {
		Approve bool `json:"approve"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	b := &c.approval
	b.mu.Lock()
	waiting := b.waiting
	if waiting {
		b.waiting = false // one answer per question
		b.answer <- req.Approve
	}
	b.mu.Unlock()
	if !waiting {
		writeError(w, http.StatusConflict, fmt.Errorf("call %s is not waiting for approval", c.id))
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]bool{"approve": req.Approve})
}

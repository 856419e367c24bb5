package mcpbridge

import (
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpwire"
)

// serveCoreTasks answers a request of the session named session when it
// is one of 2025-11-25's tasks (tasks_core.go), with a JSON response, and
// reports whether it did; the SDK serves any other, and a session it does
// not know.
func (h *HTTPHandler) serveCoreTasks(w http.ResponseWriter, req *http.Request, m *httpMessage, body []byte, session string) bool {
	if (m.Method != "tools/call" && !coreTaskMethods[m.Method]) || mcpwire.IDKey(m.ID) == "" {
		return false
	}
	params := m.params
	if params == nil {
		var b struct {
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(body, &b) != nil {
			return false
		}
		params = b.Params
	}
	if !h.tasks.mayServeCore(m.Method, params) {
		return false
	}
	ss := h.sessionNamed(session)
	if ss == nil {
		return false
	}
	serve, ok := h.tasks.takeCore(&coreSession{ss: ss}, m.Method, params)
	if !ok {
		return false
	}
	release := h.clock.hold(session)
	defer release()
	res, err := serve(req.Context())
	mcpwire.WriteResult(w, m.ID, res, err)
	return true
}

// sessionNamed returns the live session named id, or nil.
func (h *HTTPHandler) sessionNamed(id string) *mcp.ServerSession {
	for ss := range h.srv.Sessions() {
		if ss.ID() == id {
			return ss
		}
	}
	return nil
}

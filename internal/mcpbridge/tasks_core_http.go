package mcpbridge

import (
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpwire"
)

// coreTaskParams returns the params of m, whose body is body, when it
// may be one of 2025-11-25's tasks (mayServeCore): a cheap check, without
// decoding them, that every tools/call of a session passes.
func (h *HTTPHandler) coreTaskParams(m *httpMessage, body []byte) (json.RawMessage, bool) {
	if (m.Method != "tools/call" && !coreTaskMethods[m.Method]) || mcpwire.IDKey(m.ID) == "" {
		return nil, false
	}
	params := m.params
	if params == nil {
		var b struct {
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(body, &b) != nil {
			return nil, false
		}
		params = b.Params
	}
	return params, h.tasks.mayServeCore(m.Method, params)
}

// serveCoreTasks answers the request m of the session named session, with
// params, when it is one of 2025-11-25's tasks (tasks_core.go), with a
// JSON response, and reports whether it did; the SDK serves any other,
// and a session it does not know.
func (h *HTTPHandler) serveCoreTasks(w http.ResponseWriter, req *http.Request, m *httpMessage, params json.RawMessage, session string) bool {
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

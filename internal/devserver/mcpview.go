package devserver

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpbridge"
)

// toolOf returns the tool named name among those h loaded.
func toolOf(h *host.Host, name string) (host.Tool, bool) {
	tools, err := h.Tools("")
	if err != nil {
		return host.Tool{}, false
	}
	for _, t := range tools {
		if t.Name == name {
			return t, true
		}
	}
	return host.Tool{}, false
}

// listedJSON is what GET /api/tools/{name}/mcp returns: the tool's
// tools/list entry as modhost mcp gives it, or why it is not listed.
type listedJSON struct {
	Listed bool            `json:"listed"`
	Why    string          `json:"why,omitempty"`
	Entry  json.RawMessage `json:"entry,omitempty"`
}

// mcpEntry answers with the tools/list entry an MCP client receives for
// the tool, for the agent in the "agent" query parameter, if any.
func (s *Server) mcpEntry(w http.ResponseWriter, r *http.Request) {
	h, done := s.host()
	defer done()
	name := r.PathValue("name")
	t, ok := toolOf(h, name)
	if !ok {
		writeError(w, http.StatusNotFound, errors.New("no tool "+name+" is loaded"))
		return
	}
	if agent := r.URL.Query().Get("agent"); agent != "" {
		allowed, err := h.Tools(agent)
		if err != nil {
			writeError(w, http.StatusNotFound, err)
			return
		}
		if !hasTool(allowed, name) {
			writeJSON(w, http.StatusOK, listedJSON{Why: "modhost mcp --agent " + agent + " does not list it: the agent's allowlist leaves it out"})
			return
		}
	}
	mt, err := mcpbridge.ListedTool(t)
	if errors.Is(err, mcpbridge.ErrNotOffered) {
		writeJSON(w, http.StatusOK, listedJSON{Why: err.Error()})
		return
	}
	if err != nil {
		writeJSON(w, http.StatusOK, listedJSON{Why: "modhost mcp does not start: " + err.Error()})
		return
	}
	entry, err := json.Marshal(mt)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	writeJSON(w, http.StatusOK, listedJSON{Listed: true, Entry: entry})
}

func hasTool(tools []host.Tool, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// mcpResult is the tools/call result an MCP client would receive for the
// call, as JSON, or nil when modhost mcp would not offer the tool: it is
// not loaded, or only a client runs it.
func mcpResult(h *host.Host, tool string, res *host.CallResult, err error) json.RawMessage {
	t, ok := toolOf(h, tool)
	if !ok || !t.Runs.InMod() {
		return nil
	}
	data, merr := json.Marshal(mcpbridge.CallToolResult(t, res, err))
	if merr != nil {
		return nil
	}
	return data
}

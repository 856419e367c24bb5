package devserver

import (
	"errors"
	"net/http"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// complete answers the values a slash command's argument, or a resource
// template's variable, may take, as an MCP client's completion/complete:
// {prompt | template, argument, value, context} → {values, total, hasMore}.
func (s *Server) complete(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Prompt   string            `json:"prompt"`
		Template string            `json:"template"`
		Argument string            `json:"argument"`
		Value    string            `json:"value"`
		Context  map[string]string `json:"context"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	if (req.Prompt == "") == (req.Template == "") {
		writeError(w, http.StatusBadRequest, errors.New("complete: set prompt or template"))
		return
	}
	h, done := s.host()
	defer done()
	c, err := h.Complete(r.Context(), &host.CompleteRequest{Prompt: req.Prompt, Template: req.Template, Session: s.opts.Session,
		CompletionRequest: sdk.CompletionRequest{Argument: req.Argument, Value: req.Value, Context: req.Context}})
	if err != nil {
		writeFeatureError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"values": c.Values, "total": c.Total, "hasMore": c.HasMore})
}

// messageJSON is a prompt message as the page shows it; a binary part
// shows as its type and size.
type messageJSON struct {
	Role     string `json:"role"`
	Kind     string `json:"kind"` // text, image or resource
	Text     string `json:"text,omitempty"`
	URI      string `json:"uri,omitempty"`
	MIMEType string `json:"mimeType,omitempty"`
	Size     int    `json:"size,omitempty"`
}

// prompt gets a slash command's prompt with its arguments, as an MCP
// client's prompts/get: {id, arguments} → {ok, messages} or {ok, error}.
func (s *Server) prompt(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID        string            `json:"id"`
		Arguments map[string]string `json:"arguments"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	h, done := s.host()
	defer done()
	res, err := h.GetPrompt(r.Context(), req.ID, req.Arguments, s.opts.Session)
	if err != nil {
		writeFeatureError(w, err)
		return
	}
	msgs := make([]messageJSON, 0, len(res.Messages))
	for _, m := range res.Messages {
		j := messageJSON{Role: string(m.Role), Kind: "text", Text: m.Text}
		if j.Role == "" {
			j.Role = string(sdk.RoleUser)
		}
		switch {
		case m.Image != nil:
			j.Kind, j.MIMEType, j.Size = "image", m.Image.MIMEType, len(m.Image.Data)
		case m.Resource != nil:
			j.Kind, j.URI, j.MIMEType, j.Text, j.Size = "resource", m.Resource.URI, m.Resource.MIMEType, m.Resource.Text, len(m.Resource.Blob)
		}
		msgs = append(msgs, j)
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "messages": msgs})
}

// read reads a resource, as an MCP client's resources/read: {uri} → {ok,
// mimeType, text} or, for a binary one, {ok, mimeType, size}.
func (s *Server) read(w http.ResponseWriter, r *http.Request) {
	var req struct {
		URI string `json:"uri"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	h, done := s.host()
	defer done()
	res, err := h.ReadResource(r.Context(), req.URI, s.opts.Session)
	if err != nil {
		writeFeatureError(w, err)
		return
	}
	out := map[string]any{"ok": true, "uri": res.URI, "mimeType": res.MIMEType}
	if res.Blob != nil {
		out["size"] = len(res.Blob)
	} else {
		out["text"] = res.Text
	}
	writeJSON(w, http.StatusOK, out)
}

// writeFeatureError answers what the request got wrong with 404 (an
// unknown prompt or resource) or 400 (arguments), and what the mod
// refused with 200, as writeOutput does.
func writeFeatureError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, host.ErrUnknownCommand), errors.Is(err, host.ErrResourceNotFound):
		writeError(w, http.StatusNotFound, err)
	case errors.Is(err, host.ErrBadArguments):
		writeError(w, http.StatusBadRequest, err)
	default:
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "error": err.Error()})
	}
}

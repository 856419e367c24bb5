package mcpbridge

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpwire"
)

// Header names of the standard request headers (SEP-2243).
const (
	methodHeader = "Mcp-Method"
	nameHeader   = "Mcp-Name"
)

// taskMethods are the methods of the tasks extension served here; the
// extension removed tasks/result and tasks/list.
var taskMethods = map[string]bool{"tasks/get": true, "tasks/update": true, "tasks/cancel": true}

// rpcRequest is a JSON-RPC request as the tasks code reads it.
type rpcRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// requestMeta is the _meta of a stateless request.
type requestMeta struct {
	Meta struct {
		Caps json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
	} `json:"_meta"`
}

// declaresTasks reports whether a client's capabilities (JSON) declare
// the tasks extension.
func declaresTasks(caps json.RawMessage) bool {
	if declared, ok := declaresExtension(caps, TasksExtension); ok {
		return declared
	}
	var c struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(caps, &c) != nil {
		return false
	}
	_, ok := c.Extensions[TasksExtension]
	return ok
}

// declaresExtension reads whether caps, a client's capabilities (valid
// JSON), declare the extension name, without decoding them: every request
// of the tasks code asks. ok is false for a shape it leaves to
// json.Unmarshal: extensions twice or in another case, or not an object.
func declaresExtension(caps json.RawMessage, name string) (declared, ok bool) {
	r, ok := mcpwire.NewFields(caps)
	if !ok {
		return false, false
	}
	var exts json.RawMessage
	for {
		key, more := r.Next()
		if !more {
			break
		}
		v, ok := r.Value()
		if !ok || strings.EqualFold(key, "extensions") && (key != "extensions" || exts != nil) {
			return false, false
		}
		if key == "extensions" {
			exts = v
		}
	}
	if exts == nil || string(exts) == "null" {
		return false, true
	}
	r, ok = mcpwire.NewFields(exts)
	if !ok {
		return false, false
	}
	for {
		key, more := r.Next()
		if !more {
			return false, true
		}
		if key == name {
			return true, true
		}
		if _, ok := r.Value(); !ok {
			return false, false
		}
	}
}

// serveTasks answers a stateless request when it is the tasks extension's:
// a tasks method, or a tools/call that may become a task. It reports
// whether it answered.
func (h *HTTPHandler) serveTasks(w http.ResponseWriter, req *http.Request, m *httpMessage, body []byte) bool {
	tr := h.tasks
	switch {
	case m.Method == "tasks/result" || m.Method == "tasks/list":
		mcpwire.WriteError(w, http.StatusOK, m.ID, mcpwire.NewError(mcpwire.CodeMethodNotFound, "method not found: "+m.Method+" (the tasks extension has none: tasks/get carries the result)"))
		return true
	case taskMethods[m.Method]:
	case m.Method == "subscriptions/listen":
		return h.serveTaskListen(w, req, body)
	case m.Method == "tools/call":
		// The Mcp-Name header names the tool without parsing the body: a
		// tool with no task support is a plain call (and a header that
		// does not match the body is refused on that path too).
		if name := req.Header.Get("Mcp-Name"); name != "" {
			if _, ok := tr.tool(name); !ok {
				return false
			}
		}
	default:
		return false
	}
	// checkBody read the id, the method and the _meta: one more decode
	// reads the params the method takes.
	caps := m.Params.Meta[mcp.MetaKeyClientCapabilities]
	if m.Method == "tools/call" {
		p, ok := plainTaskCall(m.params)
		if !ok {
			p = new(taskCall)
			if err := paramsOf(m, body, p); err != nil {
				return false // the SDK says what is wrong
			}
		}
		t, ok := tr.tool(p.Name)
		if !ok {
			return false
		}
		if !declaresTasks(caps) {
			if t.Task != "required" {
				return false // a plain call
			}
			mcpwire.WriteError(w, http.StatusOK, m.ID, needTasks("tool "+t.Name+" runs only as a task: declare the "+TasksExtension+" extension in the client's capabilities"))
			return true
		}
		if !h.headersMatch(w, req, m.ID, m.Method, p.Name) {
			return true
		}
		res, err := tr.call(req.Context(), t, p, caps)
		mcpwire.WriteResult(w, m.ID, res, err)
		return true
	}
	var p taskParams
	if err := taskParamsOf(m, body, &p); err != nil || p.TaskID == "" {
		mcpwire.WriteError(w, http.StatusOK, m.ID, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: m.Method + ": params need a taskId"})
		return true
	}
	if !declaresTasks(caps) {
		mcpwire.WriteError(w, http.StatusOK, m.ID, needTasks(m.Method+" is a method of the "+TasksExtension+" extension, which the client did not declare"))
		return true
	}
	if !h.headersMatch(w, req, m.ID, m.Method, p.TaskID) {
		return true
	}
	ctx := req.Context()
	var res json.RawMessage
	var err error
	switch m.Method {
	case "tasks/get":
		res, err = tr.get(ctx, &p)
	case "tasks/cancel":
		res, err = tr.cancel(ctx, &p)
	case "tasks/update":
		res, err = tr.update(ctx, &p)
	}
	mcpwire.WriteResult(w, m.ID, res, err)
	return true
}

// paramsOf decodes the params of m, whose body is body, into p: those
// checkBody kept as written, or else the body's.
func paramsOf(m *httpMessage, body []byte, p any) error {
	if m.params != nil {
		return json.Unmarshal(m.params, p)
	}
	return json.Unmarshal(body, &struct {
		Params any `json:"params"`
	}{p})
}

// taskParamsOf decodes the params of the tasks method m into p, as
// paramsOf does: a poll's are read without reflection.
func taskParamsOf(m *httpMessage, body []byte, p *taskParams) error {
	if id, ok := plainTaskID(m.params); ok {
		p.TaskID = id
		return nil
	}
	return paramsOf(m, body, p)
}

// plainTaskID reads the taskId of params (valid JSON), the only member of
// taskParams they have. It reports false for any shape it leaves to
// json.Unmarshal: inputResponses, a taskId that is not a string without
// escapes, twice or in another case.
func plainTaskID(params json.RawMessage) (string, bool) {
	r, ok := mcpwire.NewFields(params)
	if !ok {
		return "", false
	}
	id, seen := "", false
	for {
		key, more := r.Next()
		if !more {
			return id, seen
		}
		v, ok := r.Value()
		switch {
		case !ok, key == "inputResponses", foldsTo(key, "taskId", "inputResponses"):
			return "", false
		case key == "taskId":
			if id, ok = plainString(v); !ok || seen {
				return "", false
			}
			seen = true
		}
	}
}

// plainTaskCall reads the params (valid JSON) of a tools/call that has a
// name, a string without escapes, and perhaps arguments and _meta, each
// once, and nothing else, as json.Unmarshal into a taskCall would. It
// reports false for any other shape.
func plainTaskCall(params json.RawMessage) (*taskCall, bool) {
	name, args, _, ok := callMembers(params)
	if !ok {
		return nil, false
	}
	n, ok := plainString(name)
	if !ok {
		return nil, false
	}
	return &taskCall{Name: n, Arguments: args}, true
}

// serveTaskListen serves a subscriptions/listen that names tasks to
// follow, and reports whether it did: the SDK serves any other.
func (h *HTTPHandler) serveTaskListen(w http.ResponseWriter, req *http.Request, body []byte) bool {
	var r rpcRequest
	if json.Unmarshal(body, &r) != nil || mcpwire.IDKey(r.ID) == "" {
		return false
	}
	ids, ok := listenTaskIDs(r.Params)
	if !ok {
		return false
	}
	var meta requestMeta
	json.Unmarshal(r.Params, &meta)
	if !declaresTasks(meta.Meta.Caps) {
		mcpwire.WriteError(w, http.StatusBadRequest, r.ID, needTasks("notifications.taskIds asks for notifications of the "+TasksExtension+" extension, which the client did not declare"))
		return true
	}
	if req.Header.Get(protocolHeader) >= sessionless {
		if method := strings.TrimSpace(req.Header.Get(methodHeader)); method != r.Method {
			why := fmt.Sprintf("header mismatch: Mcp-Method header value %s does not match body value %s", echo(method), echo(r.Method))
			if method == "" {
				why = "missing required Mcp-Method header"
			}
			mcpwire.WriteError(w, http.StatusBadRequest, r.ID, mcpwire.NewError(mcp.CodeHeaderMismatch, why))
			return true
		}
	}
	h.tasks.listen(w, req, r.ID, ids)
	return true
}

// needTasks is the error of a request that needs the tasks extension.
func needTasks(why string) error {
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: why,
		Data: json.RawMessage(`{"requiredCapabilities":{"extensions":{"` + TasksExtension + `":{}}}}`)}
}

// headersMatch checks the Mcp-Method and Mcp-Name headers of a request of
// revision 2026-07-28 against its body, as the SDK does for the requests
// it serves; a mismatch is answered with 400 and -32020.
func (h *HTTPHandler) headersMatch(w http.ResponseWriter, req *http.Request, id json.RawMessage, bodyMethod, name string) bool {
	if req.Header.Get(protocolHeader) < sessionless {
		return true
	}
	var why string
	method := strings.TrimSpace(req.Header.Get(methodHeader))
	got := strings.TrimSpace(req.Header.Get(nameHeader))
	switch {
	case method == "":
		why = "missing required Mcp-Method header"
	case method != bodyMethod:
		why = fmt.Sprintf("header mismatch: Mcp-Method header value %s does not match body value %s", echo(method), echo(bodyMethod))
	case got == "" && bodyMethod == "tools/call":
		why = fmt.Sprintf("missing required Mcp-Name header for method %q", bodyMethod)
	case got != "" && got != name:
		why = fmt.Sprintf("header mismatch: Mcp-Name header value %s does not match body value %s", echo(got), echo(name))
	default:
		return true
	}
	mcpwire.WriteError(w, http.StatusBadRequest, id, mcpwire.NewError(mcp.CodeHeaderMismatch, why))
	return false
}

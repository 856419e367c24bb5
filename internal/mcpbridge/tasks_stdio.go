package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/modkit/modkit/internal/mcpwire"
)

// stdioTasks serves the tasks extension to the sessionless (2026-07-28)
// requests of one stdio connection, as the HTTP handler does: a
// tools/call of a task tool from a client that declares the extension in
// the request, and tasks/get, tasks/update and tasks/cancel. It does not
// serve subscriptions/listen: the SDK acknowledges a listen there without
// agreeing to any taskIds, so the client polls.
type stdioTasks struct {
	tr  *taskRunner
	ctx context.Context // the session's: the requests' parent
	out *outputFilter

	mu      sync.Mutex
	running map[string]context.CancelFunc // by canonical id
	wg      sync.WaitGroup

	core stdioCore // the session's tasks of 2025-11-25 (tasks_core_stdio.go)
}

func newStdioTasks(tr *taskRunner, ctx context.Context, out *outputFilter) *stdioTasks {
	s := &stdioTasks{tr: tr, ctx: ctx, out: out, running: map[string]context.CancelFunc{}}
	s.core.init(ctx)
	return s
}

// stdioTaskRoutes are the methods stdioTasks may take.
var stdioTaskRoutes = map[string]bool{"tools/call": true, "tasks/get": true, "tasks/update": true, "tasks/cancel": true,
	"tasks/result": true, "tasks/list": true}

// serve answers the request method, whose id is id (canonical) and rawID
// (as written), when it is the tasks extension's, and reports whether it
// took it; when it did not, nothing was done.
func (s *stdioTasks) serve(method, id string, rawID, params json.RawMessage) bool {
	// A session's tasks of 2025-11-25 (tasks_core_stdio.go); the cheap
	// check first, as every call passes here.
	if stdioTaskRoutes[method] && s.tr.mayServeCore(method, params) && !sessionlessRequest(params) {
		return s.serveCore(method, id, rawID, params)
	}
	if !stdioTaskRoutes[method] || method == "tools/call" && len(s.tr.br.now().tasks) == 0 || !sessionlessRequest(params) {
		return false
	}
	var p struct {
		Meta struct {
			Version json.RawMessage `json:"io.modelcontextprotocol/protocolVersion"`
			Caps    json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
	}
	var version string
	if json.Unmarshal(params, &p) != nil || json.Unmarshal(p.Meta.Version, &version) != nil || version < sessionless {
		return false
	}
	caps := p.Meta.Caps
	rawID = bytes.Clone(rawID)
	switch method {
	case "tasks/result", "tasks/list":
		s.answer(rawID, nil, mcpwire.NewError(mcpwire.CodeMethodNotFound, "method not found: "+method+" (the tasks extension has none: tasks/get carries the result)"))
		return true
	case "tools/call":
		call := new(taskCall)
		if json.Unmarshal(params, call) != nil {
			return false // the SDK says what is wrong
		}
		t, ok := s.tr.tool(call.Name)
		switch {
		case !ok:
			return false
		case !declaresTasks(caps) && t.Task != "required":
			return false // a plain call
		case !declaresTasks(caps):
			s.answer(rawID, nil, needTasks("tool "+t.Name+" runs only as a task: declare the "+TasksExtension+" extension in the client's capabilities"))
			return true
		}
		s.run(id, func(ctx context.Context) (json.RawMessage, error) { return s.tr.call(ctx, t, call, caps) }, rawID)
		return true
	}
	var tp taskParams
	if json.Unmarshal(params, &tp) != nil || tp.TaskID == "" {
		s.answer(rawID, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: method + ": params need a taskId"})
		return true
	}
	if !declaresTasks(caps) {
		s.answer(rawID, nil, needTasks(method+" is a method of the "+TasksExtension+" extension, which the client did not declare"))
		return true
	}
	serve := map[string]func(context.Context, *taskParams) (json.RawMessage, error){
		"tasks/get": s.tr.get, "tasks/update": s.tr.update, "tasks/cancel": s.tr.cancel,
	}[method]
	s.run(id, func(ctx context.Context) (json.RawMessage, error) { return serve(ctx, &tp) }, rawID)
	return true
}

// run answers the request id (rawID as written) with what do returns, in
// the background; a notifications/cancelled of it cancels do's context.
func (s *stdioTasks) run(id string, do func(context.Context) (json.RawMessage, error), rawID json.RawMessage) {
	ctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	s.running[id] = cancel
	s.mu.Unlock()
	s.wg.Go(func() {
		defer func() {
			s.mu.Lock()
			delete(s.running, id)
			s.mu.Unlock()
			cancel()
		}()
		res, err := do(ctx)
		s.answer(rawID, res, err)
	})
}

// answer writes the response to the request rawID, a line: result, or
// err.
func (s *stdioTasks) answer(rawID, result json.RawMessage, err error) {
	var line []byte
	if err != nil {
		line = mcpwire.AppendError(nil, rawID, mcpwire.ErrorOf(err))
	} else {
		line = mcpwire.AppendResult(make([]byte, 0, len(rawID)+len(result)+37), rawID, result)
	}
	s.out.Write(append(line, '\n'))
}

// cancel cancels the request id (canonical), if it runs here.
func (s *stdioTasks) cancel(id string) {
	s.mu.Lock()
	cancel := s.running[id]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// wait waits until the requests taken have been answered, and stops
// the notifications of tasks.
func (s *stdioTasks) wait() {
	s.wg.Wait()
	s.core.stop()
}

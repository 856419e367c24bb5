package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/modkit/modkit/internal/mcpwire"
)

// stdioTasks serves the tasks extension to the sessionless (2026-07-28)
// requests of one stdio connection, as the HTTP handler does: a
// tools/call of a task tool from a client that declares the extension in
// the request, tasks/get, tasks/update and tasks/cancel, and a
// subscriptions/listen that names taskIds: its notifications are lines
// among the others, and it ends as over HTTP, when the client cancels it
// (without a result), or when the input ends (with its result). The SDK
// serves any other listen.
type stdioTasks struct {
	tr    *taskRunner
	ctx   context.Context // the session's: the requests' parent
	out   *outputFilter
	ended chan struct{} // closed when the input has ended
	end   sync.Once

	mu      sync.Mutex
	running map[string]context.CancelFunc // by canonical id
	wg      sync.WaitGroup

	core stdioCore // the session's tasks of 2025-11-25 (tasks_core_stdio.go)
}

func newStdioTasks(tr *taskRunner, ctx context.Context, out *outputFilter) *stdioTasks {
	s := &stdioTasks{tr: tr, ctx: ctx, out: out, ended: make(chan struct{}), running: map[string]context.CancelFunc{}}
	s.core.init(ctx)
	return s
}

// stdioTaskRoutes are the methods stdioTasks may take.
var stdioTaskRoutes = map[string]bool{"tools/call": true, "tasks/get": true, "tasks/update": true, "tasks/cancel": true,
	"tasks/result": true, "tasks/list": true, "subscriptions/listen": true}

// serve answers the request method, whose id is id (canonical) and rawID
// (as written), when it is the tasks extension's, and reports whether it
// took it; when it did not, nothing was done.
func (s *stdioTasks) serve(method, id string, rawID, params json.RawMessage) bool {
	// A session's tasks of 2025-11-25 (tasks_core_stdio.go); the cheap
	// check first, as every call passes here.
	if stdioTaskRoutes[method] && s.tr.mayServeCore(method, params) && !sessionlessRequest(params) {
		return s.serveCore(method, id, rawID, params)
	}
	if !stdioTaskRoutes[method] || method == "tools/call" && !s.mayBeTask(params) || !sessionlessRequest(params) {
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
	case "subscriptions/listen":
		ids, ok := listenTaskIDs(params)
		switch {
		case !ok:
			return false // no taskIds: the SDK's listen
		case !declaresTasks(caps):
			s.answer(rawID, nil, needTasks("notifications.taskIds asks for notifications of the "+TasksExtension+" extension, which the client did not declare"))
			return true
		}
		s.run(id, func(ctx context.Context) (json.RawMessage, error) {
			return s.tr.follow(ctx, rawID, ids, func() notifier { return s.notify }, s.ended)
		}, rawID)
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

// mayBeTask reports whether the tools/call params may call a tool that
// supports tasks. A plain call of any other tool, the most common
// request, is left at once, unread beyond its members (the tool is the
// first thing serve would look up among what it decodes).
func (s *stdioTasks) mayBeTask(params json.RawMessage) bool {
	tasks := s.tr.br.now().tasks
	if len(tasks) == 0 {
		return false
	}
	name, _, _, ok := callMembers(params)
	if !ok || len(name) < 2 || name[0] != '"' || bytes.IndexByte(name, '\\') >= 0 || !utf8.Valid(name) {
		return true // serve decodes the params to tell
	}
	_, ok = tasks[string(name[1:len(name)-1])]
	return ok
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

// notify writes a notification, a line.
func (s *stdioTasks) notify(method string, params json.RawMessage) error {
	_, err := s.out.Write(append(mcpwire.AppendNotification(nil, method, params), '\n'))
	return err
}

// inputEnded ends the listens: the client can no longer cancel them.
func (s *stdioTasks) inputEnded() { s.end.Do(func() { close(s.ended) }) }

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

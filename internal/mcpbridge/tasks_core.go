package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/taskstore"
)

// The tasks of MCP revision 2025-11-25's core protocol: a session's
// client asks for a task with a task member in a tools/call, and follows
// it with tasks/get, tasks/result, tasks/list and tasks/cancel. They run
// on the same runner, store, quota and principal scoping as the tasks
// extension of 2026-07-28 (tasks.go); only the shapes on the wire differ.
// The SDK has none of it: the HTTP handler and ServeStdio hand these
// requests of a 2025-11-25 session here before the SDK sees them, and a
// middleware declares the capability and each tool's task support.

// coreTasksVersion is the one revision with tasks in its core protocol.
const coreTasksVersion = "2025-11-25"

// relatedTaskKey is the _meta key naming the task a message belongs to.
const relatedTaskKey = "io.modelcontextprotocol/related-task"

// coreTaskMethods are the 2025-11-25 methods of tasks a client sends.
var coreTaskMethods = map[string]bool{"tasks/get": true, "tasks/result": true, "tasks/list": true, "tasks/cancel": true}

// coreTasksCapability is the server's tasks capability: listing,
// cancelling, and tools/call as a task.
var coreTasksCapability = json.RawMessage(`{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}`)

// coreSession is what serving one session's tasks requests needs.
type coreSession struct {
	// ss is the SDK's session: its revision, its client's capabilities,
	// and the way to ask the client a task's questions.
	ss *mcp.ServerSession
	// follow, when set, is handed each task the session creates, to send
	// its client notifications/tasks/status (stdio); an HTTP session's
	// client is sent none, and polls.
	follow func(*taskstore.Task)
}

// mayServeCore reports, without decoding params, whether the request
// method may be one of 2025-11-25's tasks: a tasks method, or a
// tools/call whose params have members beside a name, arguments and
// _meta (a task), or that names a tool that runs only as a task.
func (tr *taskRunner) mayServeCore(method string, params json.RawMessage) bool {
	if coreTaskMethods[method] {
		return true
	}
	if method != "tools/call" {
		return false
	}
	name, _, _, ok := callMembers(params)
	if !ok {
		return true // other members: a task perhaps
	}
	tasks := tr.br.now().tasks
	if len(tasks) == 0 {
		return false
	}
	if len(name) < 2 || name[0] != '"' || bytes.IndexByte(name, '\\') >= 0 {
		return true // a name json.Unmarshal reads
	}
	t, isTask := tasks[string(name[1:len(name)-1])] // no copy made
	return isTask && t.Task == "required"
}

// servesCoreTasks reports whether the session ss gets 2025-11-25's tasks:
// it speaks that revision, over HTTP (a session with an id) or over a
// stdio that serves tasks.
func (tr *taskRunner) servesCoreTasks(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	ip := ss.InitializeParams()
	return ip != nil && ip.ProtocolVersion == coreTasksVersion && (ss.ID() != "" || tr.overStdio())
}

// coreCallParams are the params of a tools/call of 2025-11-25 as the
// tasks read them.
type coreCallParams struct {
	taskCall
	Task *struct {
		TTL *int64 `json:"ttl"`
	} `json:"task"`
}

// coreTask is a task as 2025-11-25 shows it (its Task).
type coreTask struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt"`
	LastUpdatedAt string `json:"lastUpdatedAt"`
	TTL           *int64 `json:"ttl"`
	PollInterval  int64  `json:"pollInterval"`
}

func coreTaskOf(t *taskstore.Task) coreTask {
	c := coreTask{TaskID: t.ID, Status: string(t.Status), StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt.UTC().Format(time.RFC3339Nano), LastUpdatedAt: t.UpdatedAt.UTC().Format(time.RFC3339Nano),
		PollInterval: taskPollInterval.Milliseconds()}
	if t.TTL > 0 {
		ms := t.TTL.Milliseconds()
		c.TTL = &ms
	}
	return c
}

// takeCore takes the request method of the session cs, with params,
// when it is one of 2025-11-25's tasks: a tasks method, or a tools/call
// that asks for a task or must be one; serve answers it. It reports
// false, having done nothing, for a request the SDK serves: any other,
// or any in a session without these tasks.
func (tr *taskRunner) takeCore(cs *coreSession, method string, params json.RawMessage) (serve func(context.Context) (json.RawMessage, error), ok bool) {
	if (method != "tools/call" && !coreTaskMethods[method]) || !tr.servesCoreTasks(cs.ss) {
		return nil, false
	}
	fail := func(err error) func(context.Context) (json.RawMessage, error) {
		return func(context.Context) (json.RawMessage, error) { return nil, err }
	}
	if method == "tools/call" {
		var p coreCallParams
		if json.Unmarshal(params, &p) != nil {
			return nil, false // the SDK says what is wrong
		}
		t, isTask := tr.tool(p.Name)
		switch {
		case p.Task == nil && isTask && t.Task == "required":
			return fail(&jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "tool " + echo(p.Name) + " runs only as a task: call it with a task in the params"}), true
		case p.Task == nil:
			return nil, false // a plain call
		case !isTask:
			return fail(&jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "tool " + echo(p.Name) + " does not run as a task: call it without a task in the params"}), true
		}
		return func(ctx context.Context) (json.RawMessage, error) { return tr.coreCall(ctx, cs, t, &p) }, true
	}
	var p struct {
		TaskID string `json:"taskId"`
		Cursor string `json:"cursor"`
	}
	if len(params) == 0 || string(params) == "null" {
		params = json.RawMessage(`{}`) // tasks/list may have none
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return fail(&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: method + ": invalid params: " + err.Error()}), true
	}
	switch {
	case method == "tasks/list":
		return func(ctx context.Context) (json.RawMessage, error) { return tr.coreList(ctx, p.Cursor) }, true
	case p.TaskID == "":
		return fail(&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: method + ": params need a taskId"}), true
	case method == "tasks/get":
		return func(ctx context.Context) (json.RawMessage, error) { return tr.coreGet(ctx, p.TaskID) }, true
	case method == "tasks/result":
		return func(ctx context.Context) (json.RawMessage, error) { return tr.coreResult(ctx, cs, p.TaskID) }, true
	}
	return func(ctx context.Context) (json.RawMessage, error) { return tr.coreCancel(ctx, p.TaskID) }, true
}

// coreCall runs a tools/call of t as a task at once, and answers with
// its CreateTaskResult. The task is kept for the TTL the client asked
// for, when shorter than the server's.
func (tr *taskRunner) coreCall(ctx context.Context, cs *coreSession, t taskTool, p *coreCallParams) (json.RawMessage, error) {
	if tr.draining.Load() {
		return nil, errDraining
	}
	ttl := tr.ttl
	if p.Task.TTL != nil && *p.Task.TTL > 0 && time.Duration(*p.Task.TTL)*time.Millisecond < ttl {
		ttl = time.Duration(*p.Task.TTL) * time.Millisecond
	}
	input := []byte(p.Arguments)
	if string(input) == "null" {
		input = nil
	}
	caps, err := json.Marshal(cs.ss.InitializeParams().Capabilities)
	if err != nil {
		return nil, err
	}
	r := tr.newRun(t, input, caps, nil, nil)
	r.caller, r.owner = callerOf(ctx, tr.br.local), creatorOf(ctx)
	tr.start(r)
	task, err := tr.newTask(ctx, r, t, input, caps, ttl)
	if err != nil {
		return nil, err
	}
	if cs.follow != nil {
		cs.follow(task)
	}
	return json.Marshal(struct {
		Task coreTask `json:"task"`
	}{coreTaskOf(task)})
}

// coreGet answers tasks/get: the task.
func (tr *taskRunner) coreGet(ctx context.Context, id string) (json.RawMessage, error) {
	t, err := tr.read(ctx, id)
	if err != nil {
		return nil, err
	}
	return json.Marshal(coreTaskOf(t))
}

// coreList answers tasks/list: a page of the caller's tasks.
func (tr *taskRunner) coreList(ctx context.Context, cursor string) (json.RawMessage, error) {
	page, err := tr.store.List(ctx, creatorOf(ctx), cursor, 0)
	if errors.Is(err, taskstore.ErrBadCursor) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tasks/list: " + err.Error()}
	}
	if err != nil {
		return nil, storeError(err)
	}
	out := struct {
		Tasks      []coreTask `json:"tasks"`
		NextCursor string     `json:"nextCursor,omitempty"`
	}{Tasks: make([]coreTask, len(page.Tasks)), NextCursor: page.Next}
	for i, t := range page.Tasks {
		out.Tasks[i] = coreTaskOf(t)
	}
	return json.Marshal(out)
}

// coreCancel answers tasks/cancel: the task, cancelled. A task that has
// ended cannot be.
func (tr *taskRunner) coreCancel(ctx context.Context, id string) (json.RawMessage, error) {
	t, err := tr.read(ctx, id)
	if err != nil {
		return nil, err
	}
	if t.Status.Terminal() {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "cannot cancel task " + id + ": it is " + string(t.Status) + " already"}
	}
	if _, err := tr.cancel(ctx, &taskParams{TaskID: id}); err != nil {
		return nil, err
	}
	if t, err = tr.read(ctx, id); err != nil {
		return nil, err
	}
	return json.Marshal(coreTaskOf(t))
}

// coreResult answers tasks/result: it waits until the task ends, then
// answers what the call would have: its result, with the related-task
// _meta, or its error. A task waiting for answers asks its questions of
// the client through the session, and goes on with the answers.
func (tr *taskRunner) coreResult(ctx context.Context, cs *coreSession, id string) (json.RawMessage, error) {
	w := tr.watch(id)
	defer tr.unwatch(w)
	// A replica that stops leaves its task working with no change to
	// hear: the task is read again each lease, as a poll would.
	tick := time.NewTicker(tr.lease)
	defer tick.Stop()
	var asked time.Time // the input_required state whose questions were asked
	for {
		t, err := tr.read(ctx, id)
		if err != nil {
			return nil, err
		}
		switch {
		case t.Status.Terminal():
			return corePayload(t)
		case t.Status == taskstore.InputRequired && !t.UpdatedAt.Equal(asked):
			asked = t.UpdatedAt
			if err := tr.askCore(ctx, cs, t); err != nil {
				return nil, err
			}
			continue
		}
		select {
		case <-w.signal:
			w.take()
		case <-tick.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tr.drained:
			// The replica stops: the client asks again, of another
			// replica, which reads the same store.
			return nil, errDraining
		}
	}
}

// corePayload is what tasks/result answers for the ended task t.
func corePayload(t *taskstore.Task) (json.RawMessage, error) {
	switch t.Status {
	case taskstore.Completed:
		var res map[string]json.RawMessage
		if err := json.Unmarshal(t.Result, &res); err != nil {
			return nil, fmt.Errorf("task %s: its stored result: %w", t.ID, err)
		}
		delete(res, "resultType") // 2026-07-28's
		meta := map[string]json.RawMessage{}
		if m, ok := res["_meta"]; ok {
			json.Unmarshal(m, &meta)
		}
		meta[relatedTaskKey], _ = json.Marshal(map[string]string{"taskId": t.ID})
		res["_meta"], _ = json.Marshal(meta)
		return json.Marshal(res)
	case taskstore.Failed:
		var e jsonrpc.Error
		if json.Unmarshal(t.Error, &e) != nil || e.Code == 0 {
			e = jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: t.StatusMessage}
		}
		return nil, &e
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "task " + t.ID + " was cancelled: it has no result"}
}

// askCore asks the client, through the session, the questions the task
// t waits on, each request carrying the related-task _meta, and answers
// the task with the replies, as tasks/update does in the extension.
func (tr *taskRunner) askCore(ctx context.Context, cs *coreSession, t *taskstore.Task) error {
	raw, err := json.Marshal(t.InputRequests)
	if err != nil {
		return err
	}
	var reqs mcp.InputRequestMap
	if err := json.Unmarshal(raw, &reqs); err != nil {
		return fmt.Errorf("task %s: its questions: %w", t.ID, err)
	}
	related := map[string]any{"taskId": t.ID}
	answers := map[string]json.RawMessage{}
	for key, req := range reqs {
		var res any
		switch p := req.(type) {
		case *mcp.ElicitParams:
			p.Meta = mcp.Meta{relatedTaskKey: related}
			res, err = cs.ss.Elicit(ctx, p)
		case *mcp.CreateMessageParams:
			p.Meta = mcp.Meta{relatedTaskKey: related}
			res, err = cs.ss.CreateMessage(ctx, p)
		case *mcp.ListRootsParams:
			p.Meta = mcp.Meta{relatedTaskKey: related}
			res, err = cs.ss.ListRoots(ctx, p)
		default:
			return fmt.Errorf("task %s: question %q: cannot ask a %T", t.ID, key, req)
		}
		if err != nil {
			return fmt.Errorf("task %s: asking the client %q: %w", t.ID, key, err)
		}
		if answers[key], err = json.Marshal(res); err != nil {
			return err
		}
	}
	_, err = tr.update(ctx, &taskParams{TaskID: t.ID, InputResponses: answers})
	return err
}

// notifyStatus sends notifications/tasks/status with send for each
// change of task t's status, until it ends or ctx is done.
func (tr *taskRunner) notifyStatus(ctx context.Context, t *taskstore.Task, send func(method string, params any)) {
	if t.Status.Terminal() {
		return
	}
	w := tr.watch(t.ID)
	defer tr.unwatch(w)
	last := t.Status
	// The task may have changed before the watcher was set: read it
	// once, then hear the changes.
	now, err := tr.store.Get(ctx, t.ID)
	for {
		if err == nil && now != nil && now.Status != last {
			last = now.Status
			send("notifications/tasks/status", coreTaskOf(now))
			if last.Terminal() {
				return
			}
		}
		select {
		case <-w.signal:
		case <-ctx.Done():
			return
		case <-tr.ctx.Done():
			return
		}
		now, err = w.take()[t.ID], nil
	}
}

// initializeResult is an initialize result whose capabilities declare
// the tasks of 2025-11-25; every other member is the SDK's.
type initializeResult struct {
	// First, as the SDK's result has it.
	Capabilities struct {
		*mcp.ServerCapabilities
		Tasks json.RawMessage `json:"tasks"`
	} `json:"capabilities"`
	*mcp.InitializeResult
}

// coreTasksMiddleware is the SDK middleware that tells a session of
// 2025-11-25 with tasks about them: the initialize result's capabilities
// declare them, and tools/list says each tool's task support
// (listTaskSupport).
func (tr *taskRunner) coreTasksMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		ir, ok := res.(*mcp.InitializeResult)
		if err != nil || !ok || ir.Capabilities == nil {
			return res, err
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if !tr.servesCoreTasks(ss) || ir.ProtocolVersion != coreTasksVersion {
			return res, err
		}
		out := &initializeResult{InitializeResult: ir}
		out.Capabilities.ServerCapabilities = ir.Capabilities
		out.Capabilities.Tasks = coreTasksCapability
		return out, nil
	}
}

// taskSupportOf is tool name's execution.taskSupport for the session ss.
func (tr *taskRunner) taskSupportOf(ss *mcp.ServerSession, name string) string {
	if t, ok := tr.tool(name); ok && tr.servesCoreTasks(ss) {
		return string(t.Task)
	}
	return "forbidden"
}

package mcpbridge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/coalesce"
	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/taskstore"
	"github.com/modkit/modkit/sdk"
)

// TasksExtension is the MCP extension of tasks (SEP-2663): a client that
// declares it in its capabilities gets a task for a call of a tool that
// supports tasks.
const TasksExtension = "io.modelcontextprotocol/tasks"

// Defaults of the task options.
const (
	DefaultTaskTTL   = time.Hour
	DefaultTaskLease = 10 * time.Second
	// TaskAfter is how long a call of a task tool may run before it becomes
	// a task without having reported what it does.
	TaskAfter = time.Second
	// taskPollInterval is what a client is told to wait between polls.
	taskPollInterval = 500 * time.Millisecond
	// taskGetHold is how long a tasks/get of a working task waits for the
	// task to change before it answers that it is still working: a
	// result that comes meanwhile is answered at once, and saves the
	// client a poll.
	taskGetHold = 100 * time.Millisecond
)

// errReplicaStopped is the error of a task whose replica stopped before it
// finished.
const errReplicaStopped = "the replica running the task stopped before it finished"

// taskRunner runs the calls that are tasks and answers the tasks methods,
// keeping tasks in a store shared by replicas.
type taskRunner struct {
	br      *bridge
	store   taskstore.Store
	replica string // this process's id, as tasks' owner
	ttl     time.Duration
	lease   time.Duration
	quota   *taskQuota
	hold    time.Duration // taskGetHold; tests change it

	ctx  context.Context // cancelled when the runner stops
	stop context.CancelFunc
	// draining is set on shutdown: no task is started or taken over;
	// drained is closed then.
	draining  atomic.Bool
	drained   chan struct{}
	drainOnce sync.Once

	once    sync.Once
	mu      sync.Mutex
	running map[string]context.CancelFunc // task id -> cancels its run here
	wg      sync.WaitGroup

	watchers watchers
	health   storeHealth // of the readiness checks
	lastCaps atomic.Pointer[readCaps]

	// kept runs the runs' calls (goRun).
	kept *keptGoroutines
}

// maxIdleRuns is how many goroutines that ran a run's call wait for the
// next one.
const maxIdleRuns = 8

// goRun runs f, a run's call, counted in tr.wg, on a goroutine kept for
// runs.
func (tr *taskRunner) goRun(f func()) {
	tr.wg.Add(1)
	tr.kept.run(f)
}

// taskTool is a tool whose calls may be tasks.
type taskTool struct {
	host.Tool
	wrapped bool
}

func newTaskRunner(br *bridge, o *Options) *taskRunner {
	store := o.TaskStore
	if store == nil {
		store = taskstore.NewMemory()
	}
	tr := &taskRunner{br: br, store: store, replica: newID(), ttl: o.TaskTTL, lease: o.TaskLease, hold: taskGetHold,
		quota:   newTaskQuota(o.TaskMaxLive, o.TaskMaxBytes),
		running: map[string]context.CancelFunc{}, drained: make(chan struct{})}
	if tr.ttl <= 0 {
		tr.ttl = DefaultTaskTTL
	}
	if tr.lease <= 0 {
		tr.lease = DefaultTaskLease
	}
	tr.ctx, tr.stop = context.WithCancel(context.Background())
	tr.kept = newKeptGoroutines(maxIdleRuns, tr.ctx.Done())
	return tr
}

// begin starts, with the first task here, what tasks need: listening for
// cancellations and changes, renewing the leases, sweeping.
func (tr *taskRunner) begin() {
	tr.once.Do(func() {
		tr.store.Subscribe(tr.ctx, tr.cancelled)
		tr.hearChanges()
		go tr.renewLeases()
		go tr.janitor()
	})
}

func newID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// tool returns the tool named name if it supports tasks, as the server
// serves it now.
func (tr *taskRunner) tool(name string) (taskTool, bool) {
	t, ok := tr.br.now().tasks[name]
	return t, ok
}

// cancelled cancels the run of task id, if it runs here.
func (tr *taskRunner) cancelled(id string) {
	tr.mu.Lock()
	cancel := tr.running[id]
	tr.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// renewLeases keeps the claims on the tasks running here alive.
func (tr *taskRunner) renewLeases() {
	tick := time.NewTicker(tr.lease / 3)
	defer tick.Stop()
	for {
		select {
		case <-tr.ctx.Done():
			return
		case <-tick.C:
		}
		tr.mu.Lock()
		ids := make([]string, 0, len(tr.running))
		for id := range tr.running {
			ids = append(ids, id)
		}
		tr.mu.Unlock()
		for _, id := range ids {
			ctx, cancel := context.WithTimeout(tr.ctx, tr.lease/3)
			_, err := tr.store.Update(ctx, id, func(t *taskstore.Task) error {
				if t.Owner != tr.replica {
					return errNotOwner
				}
				t.LeaseUntil = time.Now().Add(tr.lease)
				return nil
			})
			cancel()
			if errors.Is(err, taskstore.ErrEnded) || errors.Is(err, errNotOwner) || errors.Is(err, taskstore.ErrNotFound) {
				tr.cancelled(id) // cancelled, and the notice lost: stop it
				continue
			}
			if err != nil {
				tr.br.opts.Logger.Debug("mcp: renew task lease", "task", id, "err", err)
			}
		}
	}
}

var errNotOwner = errors.New("another replica runs the task")

// errUnchanged drops an update that would change nothing.
var errUnchanged = errors.New("the task has that status message already")

// Drain stops taking tasks and waits, until ctx is done, for the tasks
// running here to finish. Those still running then fail, saying their
// replica stopped, or, for an idempotent tool, are released for another
// replica to run again.
func (tr *taskRunner) Drain(ctx context.Context) {
	tr.startDrain()
	done := make(chan struct{})
	go func() { tr.wg.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-ctx.Done():
	}
	tr.mu.Lock()
	ids := make([]string, 0, len(tr.running))
	for id := range tr.running {
		ids = append(ids, id)
	}
	tr.mu.Unlock()
	for _, id := range ids {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		tr.store.Update(sctx, id, func(t *taskstore.Task) error {
			if t.Owner != tr.replica {
				return errNotOwner
			}
			if t.Idempotent {
				t.Owner, t.LeaseUntil = "", time.Time{} // the next tasks/get runs it again
				return nil
			}
			failTask(t, jsonrpc.CodeInternalError, errReplicaStopped)
			return nil
		})
		cancel()
	}
	tr.stop()
}

// startDrain stops taking tasks, and ends the listens.
func (tr *taskRunner) startDrain() {
	tr.draining.Store(true)
	tr.drainOnce.Do(func() { close(tr.drained) })
}

// Close cancels every run and stops the runner.
func (tr *taskRunner) Close() { tr.stop() }

// failTask marks t failed with a JSON-RPC error.
func failTask(t *taskstore.Task, code int64, msg string) {
	t.Status = taskstore.Failed
	t.Error, _ = json.Marshal(&jsonrpc.Error{Code: code, Message: msg})
	t.Result, t.InputRequests, t.Owner = nil, nil, ""
	t.StatusMessage = msg
	t.UpdatedAt = time.Now()
}

// taskCall is a tools/call request as the runner reads it.
type taskCall struct {
	Name           string               `json:"name"`
	Arguments      json.RawMessage      `json:"arguments"`
	InputResponses mcp.InputResponseMap `json:"inputResponses"`
	RequestState   string               `json:"requestState"`
}

// run is one run of a call: the first, which may end before it becomes a
// task, or one that resumes or repeats a task.
type run struct {
	tr     *taskRunner
	tool   taskTool
	input  []byte
	caller *sdk.Caller // who the call is made for
	owner  string      // and their creatorOf
	asker  *mcpAsker
	given  []host.Answered

	ctx    context.Context
	cancel context.CancelFunc

	// started is closed when the call first reports a title or status.
	started   chan struct{}
	startOnce sync.Once
	// done is closed when the call ended before it was a task's: its
	// outcome is then in out, and the request disposes of it: it answers
	// with it, creates the task with it, stores it in the task it made
	// the run's (becameTask), or drops it (leave). The request decides
	// once (decide); a run a request decides holds a place in tr.wg until
	// then (decision).
	done       chan struct{}
	decision   bool
	wasDecided atomic.Bool

	mu      sync.Mutex
	id      string // the task's id, once it is one: the run stores its outcome
	message string // the latest title or status
	push    *coalesce.Coalescer[string]
	out     *runResult // set before done is closed
	left    bool       // the request left before a task existed: the outcome is dropped
	// ended is set once the call ended: its outcome's write replaces any
	// status message still held.
	ended atomic.Bool
}

type runResult struct {
	res *host.CallResult
	err error
}

// newRun prepares a run of a call of t from a client whose capabilities
// are caps (JSON).
func (tr *taskRunner) newRun(t taskTool, input []byte, caps json.RawMessage, given []host.Answered, loose map[string]mcp.InputResponse) *run {
	ctx, cancel := context.WithCancel(tr.ctx)
	r := &run{tr: tr, tool: t, input: input, given: given, ctx: ctx, cancel: cancel,
		asker:   &mcpAsker{can: tr.askableOf(caps), later: true, loose: loose},
		started: make(chan struct{}), done: make(chan struct{})}
	return r
}

// start runs the call of r, which a request then decides (decide).
func (tr *taskRunner) start(r *run) {
	r.decision = true
	tr.wg.Add(1) // released by decide
	tr.goRun(r.exec)
}

// askableOf is what a client whose capabilities are caps (JSON) can be
// asked. A client sends the same capabilities with each call: the last
// ones read are kept, and not decoded again.
func (tr *taskRunner) askableOf(caps json.RawMessage) askable {
	if last := tr.lastCaps.Load(); last != nil && last.caps == string(caps) {
		return last.can
	}
	var c mcp.ClientCapabilities
	json.Unmarshal(caps, &c) // what it cannot read, the client cannot be asked
	can := askableFrom(&c)
	tr.lastCaps.Store(&readCaps{caps: string(caps), can: can})
	return can
}

// readCaps are a client's capabilities (JSON) and what they let it be asked.
type readCaps struct {
	caps string
	can  askable
}

// exec runs the call. It stores the outcome when the run is a task's by
// then, drops it when the request left, and otherwise hands it to the
// request (r.out, r.done), and returns: the request disposes of it. The
// runner starts it with goRun, which counts it in tr.wg.
func (r *run) exec() {
	defer r.tr.wg.Done()
	call := &host.CallRequest{
		Tool:    r.tool.Name,
		Input:   r.input,
		Session: r.tr.br.session(nil),
		Caller:  r.caller,
		Agent:   r.tr.br.opts.Agent,
		Asker:   r.asker,
		Answers: r.given,
		OnActivity: func(ev host.ActivityEvent) {
			if ev.Update.Kind != sdk.ActivityTitle && ev.Update.Kind != sdk.ActivityStatus {
				return
			}
			r.mu.Lock()
			r.message = ev.Update.Text
			push := r.push
			r.mu.Unlock()
			if push != nil {
				push.Push(ev.Update.Text)
			}
			r.startOnce.Do(func() { close(r.started) })
		},
	}
	res, err := r.tr.br.backend.Call(r.ctx, call)
	out := runResult{res, err}
	r.mu.Lock()
	if r.id == "" && !r.left {
		r.out = &out
		r.mu.Unlock()
		close(r.done)
		return
	}
	id := r.id
	r.mu.Unlock()
	if id != "" {
		r.finish(out)
	}
}

// decide tells a run whose request is done with it: the request answered
// with its outcome, created the task with it, made the run a task's or
// left.
func (r *run) decide() {
	if r.wasDecided.CompareAndSwap(false, true) && r.decision {
		r.tr.wg.Done()
	}
}

// leave cancels the run and drops its outcome: the request that started
// it is gone and no task exists.
func (r *run) leave() {
	r.cancel()
	r.mu.Lock()
	r.left = true
	r.mu.Unlock()
	r.decide()
}

// reported tells, once the call ended before it was a task's, whether its
// handler reported a title or status: live (OnActivity), or carried with
// the outcome, as a mod's update is when the handler ends soon after it.
// r.message is then the status message the task starts with.
func (r *run) reported() bool {
	select {
	case <-r.started:
		return true
	default:
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.out == nil || r.out.res == nil {
		return false
	}
	a := r.out.res.Activity
	if r.message = a.Status; r.message == "" {
		r.message = a.Title
	}
	return r.message != ""
}

// endedWith returns the call's outcome when it ended before it was a task's.
func (r *run) endedWith() *runResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out
}

// becameTask makes r the run of task id: its status updates and its
// outcome go to the store from now on. When the call had ended already,
// its outcome is stored now, in the background.
func (r *run) becameTask(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.id = id
	if r.out != nil {
		out := *r.out
		r.tr.wg.Go(func() { r.finish(out) })
	}
	stored := r.message // the status message the task was created with
	r.push = coalesce.New(ProgressInterval, func(text string) {
		if r.ended.Load() || text == stored {
			return
		}
		ctx, cancel := context.WithTimeout(r.tr.ctx, 2*time.Second)
		defer cancel()
		_, err := r.tr.store.Update(ctx, id, func(t *taskstore.Task) error {
			if t.Status != taskstore.Working || t.Owner != r.tr.replica {
				return errNotOwner
			}
			if t.StatusMessage == text {
				return errUnchanged
			}
			t.StatusMessage, t.UpdatedAt = text, time.Now()
			return nil
		})
		if err == nil {
			stored = text
		}
	})
	r.tr.mu.Lock()
	r.tr.running[id] = r.cancel
	r.tr.mu.Unlock()
	r.tr.begin()
}

// call runs a tools/call of a task tool from a client that supports tasks:
// it answers with the call's result or its questions when the call ends
// before it becomes a task, and with a CreateTaskResult once it is one.
func (tr *taskRunner) call(ctx context.Context, t taskTool, p *taskCall, caps json.RawMessage) (json.RawMessage, error) {
	if tr.draining.Load() {
		return nil, errDraining
	}
	input := []byte(p.Arguments)
	if string(input) == "null" {
		input = nil
	}
	given, loose, err := tr.br.answers(creatorOf(ctx), t.Name, input, p.InputResponses, p.RequestState)
	if err != nil {
		return nil, err
	}
	r := tr.newRun(t, input, caps, given, loose)
	r.caller, r.owner = callerOf(ctx, tr.br.local), creatorOf(ctx)
	tr.start(r)
	timer := taskAfterTimer()
	defer stopTaskAfter(timer)
	select {
	case <-r.done:
		if !r.reported() {
			// It ended before it became a task: a plain call's answer.
			r.decide()
			r.cancel()
			out := r.out
			res, err := tr.br.outcome(r.owner, t.Tool, t.wrapped, input, r.asker, out.res, out.err)
			if err != nil {
				return nil, err
			}
			return resultJSON(res)
		}
		// It reported a title or status before it ended: it is a task
		// all the same, created with this outcome.
	case <-r.started:
	case <-timer.C:
	case <-ctx.Done():
		r.leave()
		return nil, ctx.Err()
	}
	return tr.createTask(ctx, r, t, input, caps)
}

// taskAfterTimers keep stopped timers for taskAfterTimer: every call of a
// task tool waits on one.
var taskAfterTimers = sync.Pool{New: func() any {
	t := time.NewTimer(TaskAfter)
	t.Stop()
	return t
}}

// taskAfterTimer returns a timer that fires after TaskAfter; stopTaskAfter
// stops it and keeps it for another call, its channel empty.
func taskAfterTimer() *time.Timer {
	t := taskAfterTimers.Get().(*time.Timer)
	t.Reset(TaskAfter)
	return t
}

func stopTaskAfter(t *time.Timer) {
	if !t.Stop() {
		// A tick a program's asynctimerchan=1 left in the channel.
		select {
		case <-t.C:
		default:
		}
	}
	taskAfterTimers.Put(t)
}

// createTask makes the call r runs a task, and answers with its
// CreateTaskResult; the request is then done with r's outcome.
func (tr *taskRunner) createTask(ctx context.Context, r *run, t taskTool, input []byte, caps json.RawMessage) (json.RawMessage, error) {
	task, err := tr.newTask(ctx, r, t, input, caps, tr.ttl)
	if err != nil {
		return nil, err
	}
	return createTaskResult(task), nil
}

// newTask makes the call r runs task, kept for ttl, and returns it as
// created; the request is then done with r's outcome.
func (tr *taskRunner) newTask(ctx context.Context, r *run, t taskTool, input []byte, caps json.RawMessage, ttl time.Duration) (*taskstore.Task, error) {
	defer r.decide()
	now := time.Now()
	r.mu.Lock()
	message := r.message
	r.mu.Unlock()
	task := &taskstore.Task{
		ID: newID(), Tool: t.Name, Status: taskstore.Working, StatusMessage: message,
		CreatedAt: now, UpdatedAt: now, TTL: ttl, Input: input, Client: caps,
		Owner: tr.replica, LeaseUntil: now.Add(tr.lease), Runs: 1,
		Idempotent: t.Annotations != nil && (t.Annotations.Idempotent || t.Annotations.ReadOnly),
		Creator:    creatorOf(ctx),
	}
	tr.begin()
	if out := r.endedWith(); out != nil && (out.err != nil || out.res.Status != host.StatusAsking) {
		// It ended too: the task is created ended, in one write.
		return tr.createEnded(ctx, r, task, *out)
	} // questions: the task starts working, as any does
	if err := tr.quota.admit(task, now); err != nil {
		r.leave()
		return nil, err
	}
	if err := tr.store.Create(ctx, task); err != nil {
		tr.quota.forget(task.ID)
		r.leave()
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task could not be created: " + err.Error()}
	}
	r.becameTask(task.ID) // if it ended meanwhile, this stores the outcome
	return task, nil
}

// createEnded creates task, whose run r has already ended with out, with
// its outcome: no finish, no second write.
func (tr *taskRunner) createEnded(ctx context.Context, r *run, task *taskstore.Task, out runResult) (*taskstore.Task, error) {
	r.ended.Store(true)
	r.cancel()
	change, err := r.outcome(out)
	if err != nil {
		msg := err.Error()
		change = func(t *taskstore.Task) { failTask(t, jsonrpc.CodeInternalError, msg) }
	}
	change(task)
	task.UpdatedAt = time.Now()
	if err := tr.quota.admit(task, task.UpdatedAt); err != nil {
		return nil, err
	}
	if err := tr.store.Create(ctx, task); err != nil {
		tr.quota.forget(task.ID)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task could not be created: " + err.Error()}
	}
	return task, nil
}

// errDraining refuses a call on a replica that is shutting down.
var errDraining = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "this replica is shutting down: call again, another replica will answer"}

// finish stores the outcome of the run of a task.
func (r *run) finish(out runResult) {
	r.ended.Store(true)
	r.mu.Lock()
	id, push := r.id, r.push
	r.mu.Unlock()
	if push != nil {
		push.Flush() // stops it; the outcome's write below says the rest
	}
	r.tr.mu.Lock()
	delete(r.tr.running, id)
	r.tr.mu.Unlock()
	r.cancel()
	change, err := r.outcome(out)
	if err != nil {
		change = func(t *taskstore.Task) { failTask(t, jsonrpc.CodeInternalError, err.Error()) }
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	after, err := r.tr.store.Update(ctx, id, func(t *taskstore.Task) error {
		if t.Owner != r.tr.replica {
			return errNotOwner // the lease lapsed and another replica took it
		}
		change(t)
		t.UpdatedAt = time.Now()
		return nil
	})
	if after != nil {
		r.tr.quota.changed(after) // at once: the store's notice may come later
	}
	if err != nil && !errors.Is(err, taskstore.ErrEnded) {
		r.tr.br.opts.Logger.Warn("mcp: store a task's outcome", "task", id, "err", err)
	}
}

// outcome is how a task's record changes for the outcome of its run.
func (r *run) outcome(out runResult) (func(*taskstore.Task), error) {
	t := r.tool
	res, err := out.res, out.err
	switch {
	case err != nil:
		msg := err.Error()
		return func(tk *taskstore.Task) { failTask(tk, jsonrpc.CodeInternalError, msg) }, nil
	case res.Status == host.StatusAsking:
		reqs := make(map[string]json.RawMessage, len(res.Questions))
		for i := range res.Questions {
			ir, err := inputRequest(&res.Questions[i])
			if err != nil {
				return nil, err
			}
			data, err := json.Marshal(mcp.InputRequestMap{"x": ir})
			if err != nil {
				return nil, err
			}
			var one map[string]json.RawMessage
			json.Unmarshal(data, &one)
			reqs[res.Questions[i].Key] = one["x"]
		}
		qs, err := json.Marshal(askedOf(res.Answered, res.Questions))
		if err != nil {
			return nil, err
		}
		return func(tk *taskstore.Task) {
			tk.Status, tk.InputRequests, tk.Questions, tk.Owner = taskstore.InputRequired, reqs, qs, ""
			tk.StatusMessage = "waiting for answers to " + strings.Join(slices.Sorted(mapsKeys(reqs)), ", ")
		}, nil
	case res.Status == host.StatusFailed && len(res.Unasked) > 0:
		e := missingCapabilities(res.Unasked, res.Error).(*jsonrpc.Error)
		data, _ := json.Marshal(e)
		return func(tk *taskstore.Task) {
			tk.Status, tk.Error, tk.Owner, tk.StatusMessage = taskstore.Failed, data, "", res.Error
		}, nil
	case res.Status == host.StatusFailed && crashed(t.Mod, t.Name, res.Error):
		msg := res.Error
		return func(tk *taskstore.Task) { failTask(tk, jsonrpc.CodeInternalError, msg) }, nil
	}
	mres, err := r.tr.br.outcome(r.owner, t.Tool, t.wrapped, r.input, r.asker, res, nil)
	if err != nil {
		return nil, err
	}
	data, err := resultJSON(mres)
	if err != nil {
		return nil, err
	}
	return func(tk *taskstore.Task) {
		tk.Status, tk.Result, tk.Owner, tk.InputRequests = taskstore.Completed, data, "", nil
		if mres.IsError {
			tk.StatusMessage = "the tool reported an error"
		} else {
			tk.StatusMessage = "done"
		}
	}, nil
}

// crashed reports whether a failed call's error says its mod crashed or
// its handler panicked (as the host and the mod's server word them): a
// failure outside what the tool reports, which fails the task rather than
// completing it with the tool's error.
func crashed(mod, tool, msg string) bool {
	return strings.HasPrefix(msg, "mod "+mod+" crashed") || strings.HasPrefix(msg, "tool "+tool+" panicked")
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// asked is a task's record of its call's questions: those answered, with
// their answers, and those pending.
type asked struct {
	Answered []stateAnswer   `json:"answered,omitempty"`
	Pending  []stateQuestion `json:"pending,omitempty"`
}

func askedOf(answered []host.Answered, pending []host.Question) asked {
	var a asked
	for _, x := range answered {
		a.Answered = append(a.Answered, stateAnswer{Question: toState(x.Question), Answer: x.Answer})
	}
	for _, q := range pending {
		a.Pending = append(a.Pending, toState(q))
	}
	return a
}

// resultJSON is a tools/call result as sent, with its resultType: a
// result of text alone is written without reflection.
func resultJSON(res *mcp.CallToolResult) (json.RawMessage, error) {
	size := 64
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && t != nil {
			size += len(t.Text) + 32
		}
	}
	if b, ok := (resultShape{inputRequired: true}).appendText(make([]byte, 0, size), res); ok {
		return b, nil
	}
	return encodeResult(res)
}

// encodeResult is resultJSON through reflection.
func encodeResult(res *mcp.CallToolResult) (json.RawMessage, error) {
	rt := "complete"
	if res.InputRequests != nil {
		rt = "input_required"
	} else if res.Content == nil {
		res.Content = []mcp.Content{} // never "null"
	}
	data, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	if len(data) < 2 || data[0] != '{' {
		return nil, fmt.Errorf("a tools/call result marshals to %.20q, not an object", data)
	}
	out := make([]byte, 0, len(data)+32)
	out = append(out, data[:len(data)-1]...)
	if len(data) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"resultType":"`+rt+`"}`...)
	return out, nil
}

// taskFields are the fields every task result carries (SEP-2663's Task).
type taskFields struct {
	ResultType     string `json:"resultType"`
	TaskID         string `json:"taskId"`
	Status         string `json:"status"`
	StatusMessage  string `json:"statusMessage,omitempty"`
	CreatedAt      string `json:"createdAt"`
	LastUpdatedAt  string `json:"lastUpdatedAt"`
	TTLMs          int64  `json:"ttlMs"`
	PollIntervalMs int64  `json:"pollIntervalMs"`
}

func fieldsOf(t *taskstore.Task, resultType string) taskFields {
	return taskFields{
		ResultType: resultType, TaskID: t.ID, Status: string(t.Status), StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt.UTC().Format(time.RFC3339Nano), LastUpdatedAt: t.UpdatedAt.UTC().Format(time.RFC3339Nano),
		TTLMs: t.TTL.Milliseconds(), PollIntervalMs: taskPollInterval.Milliseconds(),
	}
}

// createTaskResult is the answer to a call that became task t.
func createTaskResult(t *taskstore.Task) json.RawMessage {
	return appendTaskFields(make([]byte, 0, 256), t, "task")
}

// detailedTask is the answer to tasks/get: the task, with its result,
// error or questions.
func detailedTask(t *taskstore.Task) json.RawMessage {
	size := 256 + len(t.Result) + len(t.Error)
	data := appendTaskFields(make([]byte, 0, size), t, "complete")
	// The result and the error are JSON this package marshalled: they
	// are written as they are.
	data = appendField(data, "result", t.Result)
	data = appendField(data, "error", t.Error)
	if len(t.InputRequests) > 0 {
		reqs, _ := json.Marshal(t.InputRequests)
		data = appendField(data, "inputRequests", reqs)
	}
	return data
}

// appendField adds "name":value to the JSON object obj, unless value is
// empty.
func appendField(obj []byte, name string, value json.RawMessage) []byte {
	if len(value) == 0 {
		return obj
	}
	obj = append(obj[:len(obj)-1], `,"`...)
	obj = append(obj, name...)
	obj = append(obj, `":`...)
	obj = append(obj, value...)
	return append(obj, '}')
}

// ack is the empty answer to tasks/cancel and tasks/update.
var ack = json.RawMessage(`{"resultType":"complete"}`)

// taskParams are the params of tasks/get, tasks/update and tasks/cancel.
type taskParams struct {
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}

// creatorOf names the principal an authorized request speaks for, as a
// task records its creator: the issuer and the subject, or the client id
// when the token has no subject. It is "" without authorization.
func creatorOf(ctx context.Context) string {
	p := mcpauth.PrincipalFrom(ctx)
	if p == nil {
		return ""
	}
	return p.Key()
}

// errNotYours refuses a change of a task another principal created: it
// reads as an unknown task.
var errNotYours = errors.New("another principal created the task")

func unknownTask(id string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown task " + echo(id) + ": it never existed, or its TTL has passed"}
}

func storeError(err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task store is unavailable: " + err.Error()}
}

// get answers tasks/get. A working task whose replica's lease has lapsed
// fails then, or, idempotent, runs again here. A working task is awaited
// for up to taskGetHold: the answer is its first change (a new status
// message, its end), or, when it does not change, that it still works.
func (tr *taskRunner) get(ctx context.Context, p *taskParams) (json.RawMessage, error) {
	// Most polls find the task ended: a watcher is set up only for one
	// still working, and the task read again then, so that no change
	// between the two reads is missed.
	t, err := tr.read(ctx, p.TaskID)
	if err != nil || t.Status != taskstore.Working {
		return detailedTaskOf(t, err)
	}
	w := tr.watch(p.TaskID)
	defer tr.unwatch(w)
	if t, err = tr.read(ctx, p.TaskID); err == nil && t.Status == taskstore.Working {
		t = tr.awaitChange(ctx, w, t)
	}
	return detailedTaskOf(t, err)
}

// read returns task id as tasks/get answers it: a working task whose
// replica's lease has lapsed fails, or, idempotent, runs again here.
func (tr *taskRunner) read(ctx context.Context, id string) (*taskstore.Task, error) {
	t, err := tr.store.Get(ctx, id)
	if errors.Is(err, taskstore.ErrNotFound) || err == nil && t.Creator != creatorOf(ctx) {
		return nil, unknownTask(id)
	}
	if err != nil {
		return nil, storeError(err)
	}
	if t.Status == taskstore.Working && time.Now().After(t.LeaseUntil) {
		t, err = tr.orphaned(ctx, t)
		if err != nil {
			return nil, storeError(err)
		}
	}
	return t, nil
}

// detailedTaskOf is the answer to tasks/get of t, or err.
func detailedTaskOf(t *taskstore.Task, err error) (json.RawMessage, error) {
	if err != nil {
		return nil, err
	}
	return detailedTask(t), nil
}

// awaitChange waits up to tr.hold for the first change of t that its
// watcher w sees, and returns the task as it is then.
func (tr *taskRunner) awaitChange(ctx context.Context, w *watcher, t *taskstore.Task) *taskstore.Task {
	var hold <-chan time.Time
	for {
		if nt := w.take()[t.ID]; nt != nil && (nt.UpdatedAt.After(t.UpdatedAt) || nt.Status != t.Status) {
			return nt
		}
		if hold == nil {
			timer := time.NewTimer(tr.hold)
			defer timer.Stop()
			hold = timer.C
		}
		select {
		case <-w.signal:
		case <-hold:
			return t
		case <-ctx.Done():
			return t
		case <-tr.ctx.Done():
			return t
		}
	}
}

// orphaned handles a working task whose replica stopped renewing its
// lease: an idempotent one is run again here, any other fails.
func (tr *taskRunner) orphaned(ctx context.Context, t *taskstore.Task) (*taskstore.Task, error) {
	tool, known := tr.tool(t.Tool)
	rerun := t.Idempotent && known && !tr.draining.Load()
	after, err := tr.store.Update(ctx, t.ID, func(t *taskstore.Task) error {
		if t.Status != taskstore.Working || !time.Now().After(t.LeaseUntil) {
			return errNotOwner // someone else dealt with it
		}
		if rerun {
			t.Owner, t.LeaseUntil, t.Runs = tr.replica, time.Now().Add(tr.lease), t.Runs+1
			t.StatusMessage, t.UpdatedAt = "running again: the replica running it stopped", time.Now()
			return nil
		}
		failTask(t, jsonrpc.CodeInternalError, errReplicaStopped)
		return nil
	})
	switch {
	case errors.Is(err, errNotOwner), errors.Is(err, taskstore.ErrEnded):
		return tr.store.Get(ctx, t.ID)
	case err != nil:
		return nil, err
	}
	if rerun {
		var a asked
		json.Unmarshal(after.Questions, &a)
		tr.resume(after, tool, answeredOf(a))
	}
	return after, nil
}

func answeredOf(a asked) []host.Answered {
	out := make([]host.Answered, len(a.Answered))
	for i, x := range a.Answered {
		out[i] = host.Answered{Question: x.Question.question(), Answer: x.Answer}
	}
	slices.SortStableFunc(out, func(a, b host.Answered) int { return a.Question.Position - b.Question.Position })
	return out
}

// resume runs task t, owned by this replica now, in the background with
// the answers given.
func (tr *taskRunner) resume(t *taskstore.Task, tool taskTool, given []host.Answered) {
	r := tr.newRun(tool, t.Input, t.Client, given, nil)
	r.becameTask(t.ID) // before the call starts: it stores its own outcome
	tr.goRun(r.exec)
}

// cancel answers tasks/cancel: the task is cancelled at once, and its run
// on whichever replica has it is told to stop.
func (tr *taskRunner) cancel(ctx context.Context, p *taskParams) (json.RawMessage, error) {
	who := creatorOf(ctx)
	t, err := tr.store.Update(ctx, p.TaskID, func(t *taskstore.Task) error {
		if t.Creator != who {
			return errNotYours
		}
		t.Status, t.StatusMessage, t.UpdatedAt = taskstore.Cancelled, "cancelled by the client", time.Now()
		t.InputRequests, t.Owner = nil, ""
		return nil
	})
	switch {
	case errors.Is(err, taskstore.ErrNotFound), errors.Is(err, errNotYours),
		errors.Is(err, taskstore.ErrEnded) && t.Creator != who:
		return nil, unknownTask(p.TaskID)
	case errors.Is(err, taskstore.ErrEnded):
		return ack, nil
	case err != nil:
		return nil, storeError(err)
	}
	tr.quota.changed(t) // at once: the store's notice may come later
	if err := tr.store.Notify(ctx, p.TaskID); err != nil {
		tr.br.opts.Logger.Warn("mcp: notify a task's cancellation", "task", p.TaskID, "err", err)
	}
	return ack, nil
}

// update answers tasks/update: answers to a task's pending questions. Once
// every question has its answer, the call runs again, here, with them.
func (tr *taskRunner) update(ctx context.Context, p *taskParams) (json.RawMessage, error) {
	var resume []host.Answered
	var tool taskTool
	who := creatorOf(ctx)
	t, err := tr.store.Update(ctx, p.TaskID, func(t *taskstore.Task) error {
		resume = nil
		if t.Creator != who {
			return errNotYours
		}
		if t.Status != taskstore.InputRequired {
			return nil
		}
		var a asked
		if err := json.Unmarshal(t.Questions, &a); err != nil {
			return err
		}
		var still []stateQuestion
		for _, q := range a.Pending {
			raw, ok := p.InputResponses[q.Key]
			if !ok || raw == nil {
				still = append(still, q)
				continue
			}
			resp, err := inputResponse(q.Kind, raw)
			if err != nil {
				return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("inputResponses[%q]: %v", q.Key, err)}
			}
			ans, _ := json.Marshal(resp)
			a.Answered = append(a.Answered, stateAnswer{Question: q, Answer: ans})
			delete(t.InputRequests, q.Key)
		}
		a.Pending = still
		t.Questions, _ = json.Marshal(a)
		t.UpdatedAt = time.Now()
		if len(still) > 0 {
			return nil
		}
		var ok bool
		if tool, ok = tr.tool(t.Tool); !ok || tr.draining.Load() {
			failTask(t, jsonrpc.CodeInternalError, "this replica cannot run tool "+t.Tool)
			return nil
		}
		t.Status, t.InputRequests, t.StatusMessage = taskstore.Working, nil, "resuming with the answers"
		t.Owner, t.LeaseUntil, t.Runs = tr.replica, time.Now().Add(tr.lease), t.Runs+1
		resume = answeredOf(a)
		return nil
	})
	switch {
	case errors.Is(err, taskstore.ErrNotFound), errors.Is(err, errNotYours),
		errors.Is(err, taskstore.ErrEnded) && t.Creator != who:
		return nil, unknownTask(p.TaskID)
	case errors.Is(err, taskstore.ErrEnded):
		return ack, nil
	case err != nil:
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			return nil, err
		}
		return nil, storeError(err)
	}
	if resume != nil {
		tr.resume(t, tool, resume)
	}
	return ack, nil
}

// inputResponse decodes an answer to a question of kind.
func inputResponse(kind host.QuestionKind, raw json.RawMessage) (mcp.InputResponse, error) {
	var r mcp.InputResponse
	switch kind {
	case host.AskForm, host.AskURL:
		r = &mcp.ElicitResult{}
	case host.AskSample:
		r = &mcp.CreateMessageResult{}
	case host.AskRoots:
		r = &mcp.ListRootsResult{}
	default:
		return nil, fmt.Errorf("unknown kind of question %q", kind)
	}
	if err := json.Unmarshal(raw, r); err != nil {
		return nil, err
	}
	return r, fits(kind, r)
}

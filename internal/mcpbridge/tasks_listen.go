package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpwire"
	"github.com/modkit/modkit/internal/taskstore"
)

// Task status notifications (the tasks extension, 2026-07-28): a client
// opens a subscriptions/listen stream naming the tasks it follows in
// notifications.taskIds, and gets notifications/tasks, each carrying the
// task as tasks/get would answer it, whenever one of them changes, on
// whichever replica runs it.
//
// A listen that names taskIds is served here, and agrees to the task
// notifications only (a client wanting list changes or resource updates
// too opens a second listen, which the SDK serves); the acknowledgement
// lists the tasks known. Each task's current state follows at once, then
// its changes. The stream ends, with the listen's result, once every task
// followed has ended (or expired), or when the replica stops; over stdio
// (stdioTasks) also when the client's input ends. A listen the client
// cancels, or leaves, ends without a result.

// maxListenTasks caps the tasks one listen follows.
const maxListenTasks = 1000

// listenCheck is how often a listen reads the tasks it follows from the
// store: a working task whose replica stopped then fails (or runs again),
// and a change whose notice was lost (a Redis restart) is sent.
const listenCheck = time.Second

// listenParams are the params of subscriptions/listen as read here.
type listenParams struct {
	Notifications *struct {
		TaskIDs *[]string `json:"taskIds"`
	} `json:"notifications"`
}

// listenTaskIDs returns the taskIds of a subscriptions/listen request's
// params, and whether it names them.
func listenTaskIDs(params json.RawMessage) ([]string, bool) {
	var p listenParams
	if json.Unmarshal(params, &p) != nil || p.Notifications == nil || p.Notifications.TaskIDs == nil {
		return nil, false
	}
	return *p.Notifications.TaskIDs, true
}

// listen serves a subscriptions/listen stream of task status
// notifications for the tasks ids, as server-sent events.
func (tr *taskRunner) listen(w http.ResponseWriter, req *http.Request, id json.RawMessage, ids []string) {
	var s *eventStream
	res, err := tr.follow(req.Context(), id, ids, func() notifier {
		s = &eventStream{w: w}
		s.start()
		return s.notify
	}, nil)
	switch {
	case s == nil && err != nil:
		status := http.StatusOK
		if je, ok := err.(*jsonrpc.Error); ok && je.Code == jsonrpc.CodeInvalidParams {
			status = http.StatusBadRequest
		}
		mcpwire.WriteError(w, status, id, err)
	case err == nil:
		s.respond(id, res)
	}
}

// notifier sends a notification to a listen's client.
type notifier func(method string, params json.RawMessage) error

// follow serves a subscriptions/listen, whose request id is id, of the
// tasks ids. Once the tasks are read, open is called, once, to start the
// stream, and the acknowledgement and the notifications go to what it
// returns. follow returns the listen's result when every task followed has
// ended (or expired), when the replica stops, or when end (nil: never) is
// closed; it returns an error when the listen is refused (then open was
// not called), when ctx is done (the client left or cancelled the listen:
// no result to send), or when a notification could not be sent.
func (tr *taskRunner) follow(ctx context.Context, id json.RawMessage, ids []string, open func() notifier, end <-chan struct{}) (json.RawMessage, error) {
	ids = uniqueIDs(ids)
	if len(ids) > maxListenTasks {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("notifications.taskIds: %d tasks, at most %d in one listen", len(ids), maxListenTasks)}
	}
	wt := tr.watch(ids...) // before the reads, so that no change is missed
	defer tr.unwatch(wt)
	sent := map[string]*taskstore.Task{} // the last state sent of each task followed
	var agreed []string
	who := creatorOf(ctx)
	for _, tid := range ids {
		t, err := tr.store.Get(ctx, tid)
		if errors.Is(err, taskstore.ErrNotFound) || err == nil && t.Creator != who {
			continue // not agreed: the acknowledgement leaves it out
		}
		if err != nil {
			return nil, storeError(err)
		}
		agreed = append(agreed, tid)
		sent[tid] = t
	}
	subID := id
	if agreed == nil {
		agreed = []string{}
	}
	notify := open()
	ack, _ := json.Marshal(map[string]any{
		"notifications": map[string]any{"taskIds": agreed},
		"_meta":         map[string]any{mcp.MetaKeySubscriptionID: subID},
	})
	if err := notify("notifications/subscriptions/acknowledged", ack); err != nil {
		return nil, err
	}
	for _, tid := range agreed {
		if err := notify("notifications/tasks", taskNotification(sent[tid], subID)); err != nil {
			return nil, err
		}
	}
	tick := time.NewTicker(listenCheck)
	defer tick.Stop()
	for {
		working := 0
		for _, t := range sent {
			if !t.Status.Terminal() {
				working++
			}
		}
		if working == 0 {
			break
		}
		var changed map[string]*taskstore.Task
		ended := false
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-end:
			ended = true
		case <-tr.ctx.Done():
		case <-tr.drained:
		case <-wt.signal:
			changed = wt.take()
		case <-tick.C:
			changed = tr.reread(ctx, sent)
		}
		if ended || changed == nil && (tr.ctx.Err() != nil || tr.draining.Load()) {
			break
		}
		for tid, t := range changed {
			last, ok := sent[tid]
			if !ok {
				continue
			}
			if t == nil { // expired
				delete(sent, tid)
				continue
			}
			if last.Status.Terminal() || !(t.UpdatedAt.After(last.UpdatedAt) || t.Status != last.Status) {
				continue
			}
			sent[tid] = t
			if err := notify("notifications/tasks", taskNotification(t, subID)); err != nil {
				return nil, err
			}
		}
	}
	res, _ := json.Marshal(map[string]any{"resultType": "complete", "_meta": map[string]any{mcp.MetaKeySubscriptionID: subID}})
	return res, nil
}

// reread reads the working tasks of sent from the store: a task that
// expired maps to nil, one whose replica stopped is failed (or run again)
// as tasks/get would.
func (tr *taskRunner) reread(ctx context.Context, sent map[string]*taskstore.Task) map[string]*taskstore.Task {
	out := map[string]*taskstore.Task{}
	for tid, last := range sent {
		if last.Status.Terminal() {
			continue
		}
		t, err := tr.store.Get(ctx, tid)
		switch {
		case errors.Is(err, taskstore.ErrNotFound):
			out[tid] = nil
			continue
		case err != nil:
			continue // the store is down: try again at the next check
		}
		if t.Status == taskstore.Working && time.Now().After(t.LeaseUntil) {
			if nt, err := tr.orphaned(ctx, t); err == nil {
				t = nt
			}
		}
		out[tid] = t
	}
	return out
}

// uniqueIDs drops repeated and empty ids, keeping the order.
func uniqueIDs(ids []string) []string {
	var out []string
	for _, id := range ids {
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// taskNotification is the params of notifications/tasks for t: the task
// as tasks/get answers it, with the listen's subscription id.
func taskNotification(t *taskstore.Task, subID json.RawMessage) json.RawMessage {
	f := fieldsOf(t, "")
	data, _ := json.Marshal(struct {
		taskFields
		ResultType    string                     `json:"resultType,omitempty"`
		Result        json.RawMessage            `json:"result,omitempty"`
		Error         json.RawMessage            `json:"error,omitempty"`
		InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
		Meta          map[string]json.RawMessage `json:"_meta"`
	}{taskFields: f, Result: t.Result, Error: t.Error, InputRequests: t.InputRequests,
		Meta: map[string]json.RawMessage{mcp.MetaKeySubscriptionID: subID}})
	return data
}

// eventStream writes server-sent events, one JSON-RPC message each.
type eventStream struct {
	w http.ResponseWriter
}

func (s *eventStream) start() {
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	s.w.WriteHeader(http.StatusOK)
	s.flush()
}

// notify sends a notification.
func (s *eventStream) notify(method string, params json.RawMessage) error {
	return s.event(mcpwire.AppendNotification(nil, method, params))
}

// respond sends the response to the request id, which ends the stream.
func (s *eventStream) respond(id, result json.RawMessage) error {
	return s.event(mcpwire.AppendResult(nil, id, result))
}

func (s *eventStream) event(data []byte) error {
	b := make([]byte, 0, len(data)+24)
	b = append(b, "event: message\ndata: "...)
	b = append(b, data...)
	b = append(b, "\n\n"...)
	if _, err := s.w.Write(b); err != nil {
		return err
	}
	s.flush()
	return nil
}

func (s *eventStream) flush() {
	http.NewResponseController(s.w).Flush()
}

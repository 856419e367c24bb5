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
// followed has ended (or expired), or when the replica stops.

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
// notifications for the tasks ids.
func (tr *taskRunner) listen(w http.ResponseWriter, req *http.Request, id json.RawMessage, ids []string) {
	ids = uniqueIDs(ids)
	if len(ids) > maxListenTasks {
		mcpwire.WriteError(w, http.StatusBadRequest, id, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("notifications.taskIds: %d tasks, at most %d in one listen", len(ids), maxListenTasks)})
		return
	}
	ctx := req.Context()
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
			mcpwire.WriteError(w, http.StatusOK, id, storeError(err))
			return
		}
		agreed = append(agreed, tid)
		sent[tid] = t
	}
	subID := id
	if agreed == nil {
		agreed = []string{}
	}
	s := &eventStream{w: w}
	s.start()
	ack, _ := json.Marshal(map[string]any{
		"notifications": map[string]any{"taskIds": agreed},
		"_meta":         map[string]any{mcp.MetaKeySubscriptionID: subID},
	})
	if s.notify("notifications/subscriptions/acknowledged", ack) != nil {
		return
	}
	for _, tid := range agreed {
		if s.notify("notifications/tasks", taskNotification(sent[tid], subID)) != nil {
			return
		}
	}
	tick := time.NewTicker(listenCheck)
	defer tick.Stop()
	for {
		open := 0
		for _, t := range sent {
			if !t.Status.Terminal() {
				open++
			}
		}
		if open == 0 {
			break
		}
		var changed map[string]*taskstore.Task
		select {
		case <-ctx.Done():
			return // the client left: no result to send
		case <-tr.ctx.Done():
		case <-tr.drained:
		case <-wt.signal:
			changed = wt.take()
		case <-tick.C:
			changed = tr.reread(ctx, sent)
		}
		if changed == nil && (tr.ctx.Err() != nil || tr.draining.Load()) {
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
			if s.notify("notifications/tasks", taskNotification(t, subID)) != nil {
				return
			}
		}
	}
	res, _ := json.Marshal(map[string]any{"resultType": "complete", "_meta": map[string]any{mcp.MetaKeySubscriptionID: subID}})
	s.respond(id, res)
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

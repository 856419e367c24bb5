package mcpbridge

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/internal/taskstore"
	"github.com/modkit/modkit/internal/testserver"
)

// taskStores are the stores tasks are tested in: memory, and Redis when
// redis-server is installed (required under CI).
var taskStores = map[string]func(t *testing.T) taskstore.Store{
	"memory": func(*testing.T) taskstore.Store { return taskstore.NewMemory() },
	"redis": func(t *testing.T) taskstore.Store {
		s, err := taskstore.Open(testserver.StartRedis(t).URL())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	},
}

// authTaskServer serves b behind the tokens of is for resource, its tasks
// in store, with opts (nil: defaults), and returns its URL: one replica.
func authTaskServer(t *testing.T, b Backend, store taskstore.Store, is *mcpauthtest.Issuer, resource string, opts *Options) string {
	t.Helper()
	o := Options{TaskLease: time.Second}
	if opts != nil {
		o = *opts
	}
	o.TaskStore = store
	srv, err := NewServer(b, &o)
	if err != nil {
		t.Fatal(err)
	}
	auth, err := mcpauth.New(t.Context(), &mcpauth.Options{Issuer: is.URL, Resource: resource})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(&HTTPOptions{Auth: auth})
	ts := httptest.NewServer(h)
	t.Cleanup(func() { ts.Close(); h.Close() })
	return ts.URL
}

// clientOf is an HTTP client that sends the token is signs for a
// principal: sub (none when empty) and client_id.
func clientOf(t *testing.T, is *mcpauthtest.Issuer, resource, sub, clientID string) *http.Client {
	claims := is.Claims(resource, "", time.Now())
	claims["client_id"] = clientID
	if sub == "" {
		delete(claims, "sub")
	} else {
		claims["sub"] = sub
	}
	return &http.Client{Transport: bearer{is.Sign(t, "rsa", claims)}}
}

// TestTaskOwner: a task belongs to its creator. Another principal's
// tasks/get, tasks/update, tasks/cancel and subscriptions/listen read it
// as an unknown task, word for word, on either replica of a shared
// store; its creator's, with another client or token, read it.
func TestTaskOwner(t *testing.T) {
	t.Parallel()
	for name, open := range taskStores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			is := mcpauthtest.NewIssuer(t)
			const resource = "https://mcp.example/mcp"
			store := open(t)
			b := newTaskBackend()
			defer close(b.release)
			replicas := []string{authTaskServer(t, b, store, is, resource, nil), authTaskServer(t, b, store, is, resource, nil)}
			ada := clientOf(t, is, resource, "ada", "app-1")
			adaElsewhere := clientOf(t, is, resource, "ada", "app-2")
			bob := clientOf(t, is, resource, "bob", "app-1")
			app1 := clientOf(t, is, resource, "", "app-1") // no subject: the client is the principal
			app2 := clientOf(t, is, resource, "", "app-2")

			create := func(c *http.Client, tool string) string {
				res, e := postBy(t, c, replicas[0], "tools/call", tool, map[string]any{"name": tool, "arguments": map[string]any{"label": "x"}}, withTasks)
				if e != nil || res["resultType"] != "task" {
					t.Fatalf("tools/call %s: got %v %v, want a task", tool, res, e)
				}
				return res["taskId"].(string)
			}
			// unknown is how a request for task id reads when no task has it.
			unknown := func(c *http.Client, method, id string) map[string]any {
				_, e := postBy(t, c, replicas[1], method, "never", map[string]any{"taskId": "never"}, withTasks)
				if e == nil {
					t.Fatalf("%s of an unknown task: got no error", method)
				}
				e["message"] = strings.ReplaceAll(e["message"].(string), `"never"`, fmt.Sprintf("%q", id))
				return e
			}
			working := create(ada, "work")
			asking := create(ada, "ask")
			ended := create(ada, "flash")
			for {
				res, e := postBy(t, ada, replicas[0], "tasks/get", ended, map[string]any{"taskId": ended}, withTasks)
				if e != nil {
					t.Fatal(e)
				}
				if res["status"] == "completed" {
					break
				}
			}
			byClient := create(app1, "work")
			for _, tc := range []struct {
				name   string
				client *http.Client
				id     string
				mine   bool
			}{
				{"another subject, working task", bob, working, false},
				{"another subject, asking task", bob, asking, false},
				{"another subject, ended task", bob, ended, false},
				{"a client without subject, a subject's task", app1, working, false},
				{"the creator by another client", adaElsewhere, working, true},
				{"another client without subject", app2, byClient, false},
				{"the creating client", app1, byClient, true},
			} {
				for _, replica := range replicas {
					for _, method := range []string{"tasks/get", "tasks/update"} {
						res, e := postBy(t, tc.client, replica, method, tc.id, map[string]any{"taskId": tc.id}, withTasks)
						if tc.mine {
							if e != nil {
								t.Errorf("%s: %s: got %v, want the task", tc.name, method, e)
							}
							continue
						}
						if want := unknown(tc.client, method, tc.id); res != nil || fmt.Sprint(e) != fmt.Sprint(want) {
							t.Errorf("%s: %s: got %v %v, want %v", tc.name, method, res, e, want)
						}
					}
					if tc.mine {
						continue
					}
					if ids := listenAs(t, tc.client, replica, tc.id); len(ids) != 0 {
						t.Errorf("%s: subscriptions/listen agreed to %v, want none", tc.name, ids)
					}
					res, e := postBy(t, tc.client, replica, "tasks/cancel", tc.id, map[string]any{"taskId": tc.id}, withTasks)
					if want := unknown(tc.client, "tasks/cancel", tc.id); res != nil || fmt.Sprint(e) != fmt.Sprint(want) {
						t.Errorf("%s: tasks/cancel: got %v %v, want %v", tc.name, res, e, want)
					}
				}
			}
			// None of those cancels reached the tasks: their creator reads
			// them as they were, and cancels them.
			for _, id := range []string{working, asking} {
				res, e := postBy(t, ada, replicas[1], "tasks/get", id, map[string]any{"taskId": id}, withTasks)
				if e != nil || res["status"] == "cancelled" {
					t.Fatalf("the creator's tasks/get of %s: got %v %v, want it not cancelled", id, res, e)
				}
				if _, e := postBy(t, ada, replicas[1], "tasks/cancel", id, map[string]any{"taskId": id}, withTasks); e != nil {
					t.Fatalf("the creator's tasks/cancel: %v", e)
				}
			}
		})
	}
}

// listenAs opens subscriptions/listen by client for id, and returns the
// task ids its acknowledgement agrees to follow.
func listenAs(t *testing.T, client *http.Client, url, id string) []any {
	t.Helper()
	_, next := openListenBy(t, client, url, []string{id}, withTasks)
	m := next()
	var ack struct {
		Notifications struct {
			TaskIDs []any `json:"taskIds"`
		} `json:"notifications"`
	}
	if m.Method != "notifications/subscriptions/acknowledged" || json.Unmarshal(m.Params, &ack) != nil {
		t.Fatalf("subscriptions/listen: got %+v, want the acknowledgement first", m)
	}
	return ack.Notifications.TaskIDs
}

// TestTaskCaps: over HTTP, a principal past its live cap is refused with
// an error naming the cap while another still creates tasks; past the
// bytes cap, its oldest ended task is evicted and reads as unknown.
func TestTaskCaps(t *testing.T) {
	t.Parallel()
	is := mcpauthtest.NewIssuer(t)
	const resource = "https://mcp.example/mcp"
	b := newTaskBackend()
	defer close(b.release)
	// A flash's task keeps its 10 KB input and less than 2 KB more; a
	// work's, less than 2 KB: three flashes and a work fit, not four.
	const label = 10_000
	url := authTaskServer(t, b, taskstore.NewMemory(), is, resource, &Options{TaskLease: time.Second, TaskMaxLive: 2, TaskMaxBytes: 3*label + 8_000})
	ada := clientOf(t, is, resource, "ada", "app")
	bob := clientOf(t, is, resource, "bob", "app")
	call := func(c *http.Client, tool string) (map[string]any, map[string]any) {
		arg := "x"
		if tool == "flash" {
			arg = strings.Repeat("x", label)
		}
		return postBy(t, c, url, "tools/call", tool, map[string]any{"name": tool, "arguments": map[string]any{"label": arg}}, withTasks)
	}
	for range 2 {
		if res, e := call(ada, "work"); e != nil || res["resultType"] != "task" {
			t.Fatalf("ada's work: got %v %v, want a task", res, e)
		}
	}
	if res, e := call(ada, "work"); res != nil || e == nil || !strings.Contains(e["message"].(string), "too many live tasks: 2 are working or waiting for answers, the cap is 2") {
		t.Fatalf("ada's third work: got %v %v, want a refusal naming the cap", res, e)
	}
	if res, e := call(bob, "work"); e != nil || res["resultType"] != "task" {
		t.Fatalf("bob's work, ada at her cap: got %v %v, want a task", res, e)
	}

	var flashes []string
	for range 4 {
		res, e := call(bob, "flash")
		if e != nil || res["resultType"] != "task" {
			t.Fatalf("bob's flash: got %v %v, want a task", res, e)
		}
		id := res["taskId"].(string)
		flashes = append(flashes, id)
		for res["status"] != "completed" { // ended before the next is made
			if res, e = postBy(t, bob, url, "tasks/get", id, map[string]any{"taskId": id}, withTasks); e != nil {
				t.Fatal(e)
			}
		}
	}
	// The fourth evicted the first.
	for {
		_, e := postBy(t, bob, url, "tasks/get", flashes[0], map[string]any{"taskId": flashes[0]}, withTasks)
		if e != nil && strings.HasPrefix(e["message"].(string), "unknown task") {
			break // evicted from the store: the event awaited
		}
	}
	for _, id := range flashes[1:] {
		if _, e := postBy(t, bob, url, "tasks/get", id, map[string]any{"taskId": id}, withTasks); e != nil {
			t.Errorf("tasks/get of a later flash: got %v, want it kept", e)
		}
	}
}

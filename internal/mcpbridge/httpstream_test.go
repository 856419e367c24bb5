package mcpbridge

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpwire"
)

// sseEvent is one server-sent event as written: its fields by name.
type sseEvent map[string]string

// readEvent reads the next event of a raw event stream, or returns false at
// its end.
func readEvent(t *testing.T, r *bufio.Reader) (sseEvent, bool) {
	t.Helper()
	ev := sseEvent{}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if err != io.EOF && len(ev) == 0 {
				t.Logf("reading the event stream: %v", err)
			}
			return ev, len(ev) > 0
		}
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			if len(ev) > 0 {
				return ev, true
			}
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue // a comment
		}
		name, value, _ := strings.Cut(line, ":")
		ev[name] = strings.TrimPrefix(value, " ")
	}
}

// releaseBackend has one tool, "wait", whose calls are answered only once
// release is closed, whatever becomes of the request.
func releaseBackend(started, release chan struct{}) *fakeBackend {
	return &fakeBackend{
		tools: []host.Tool{{Mod: "m", Tool: manifestTool("wait", `{"type":"object"}`)}},
		call: func(_ context.Context, req *host.CallRequest) *host.CallResult {
			close(started)
			<-release
			return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: "done", Result: []byte(`{}`)}
		},
	}
}

// checkPriming checks that ev is a priming event with the retry field, and
// returns its id.
func checkPriming(t *testing.T, ev sseEvent) string {
	t.Helper()
	data, hasData := ev["data"]
	if ev["id"] == "" || !hasData || data != "" {
		t.Fatalf("first event: got %v, want an id and empty data", ev)
	}
	if got, want := ev["retry"], strconv.FormatInt(sseRetry.Milliseconds(), 10); got != want {
		t.Errorf("priming event's retry: got %q, want %q", got, want)
	}
	return ev["id"]
}

// TestHTTPPrimingEvent reads the event stream of a call still running
// after heldFlush in a session of 2025-11-25: a priming event with a
// retry field, then the answer.
func TestHTTPPrimingEvent(t *testing.T) {
	t.Parallel()
	for _, sdkOnly := range []bool{false, true} {
		t.Run("SDK only "+strconv.FormatBool(sdkOnly), func(t *testing.T) {
			t.Parallel()
			testPrimingEvent(t, sdkOnly)
		})
	}
}

func testPrimingEvent(t *testing.T, sdkOnly bool) {
	started, release := make(chan struct{}), make(chan struct{})
	c := newRawHTTP(t, releaseBackend(started, release), nil)
	if sdkOnly {
		c.h.live = nil
	}
	store := &countedStore{EventStore: c.h.events}
	c.h.events = store
	session := c.initialize()
	resp := c.post(session, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type: got %q, want text/event-stream", ct)
	}
	r := bufio.NewReader(resp.Body)
	first, ok := readEvent(t, r)
	if !ok {
		t.Fatal("the stream ended with no event")
	}
	primed := checkPriming(t, first)
	close(release)
	if !sdkOnly && c.h.live.served.Load() != 1 {
		t.Error("the call did not take the session direct path")
	}
	for {
		ev, ok := readEvent(t, r)
		if !ok {
			t.Fatal("the stream ended with no answer to the call")
		}
		if ev["id"] == "" || ev["id"] == primed {
			t.Errorf("event %v: want an id of its own", ev)
		}
		if _, retry := ev["retry"]; retry {
			t.Errorf("event %v: only the priming event should carry retry", ev)
		}
		if id, ok := mcpwire.ResponseID([]byte(ev["data"])); ok && id == "5" {
			break
		}
	}
	// The stream went out: it is kept, priming event and answer, to be
	// resumed.
	if opened, appended := store.opened.Load(), store.appended.Load(); !sdkOnly && (opened != 1 || appended != 2) {
		t.Errorf("event store: got %d streams opened and %d events kept, want 1 and 2", opened, appended)
	}
}

// TestHTTPQuickAnswerJSON: a call of a session answered before its event
// stream would start (heldFlush) gets its answer as a JSON response.
func TestHTTPQuickAnswerJSON(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	close(release)
	c := newRawHTTP(t, releaseBackend(started, release), nil)
	c.h.jsonHold = time.Minute
	store := &countedStore{EventStore: c.h.events}
	c.h.events = store
	session := c.initialize()
	resp := c.post(session, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "application/json" {
		t.Fatalf("got %s, Content-Type %q, want 200 and application/json", resp.Status, ct)
	}
	if id, ok := mcpwire.ResponseID(body); !ok || id != "5" || !strings.Contains(string(body), `"result"`) {
		t.Errorf("body: got %s, want the result of call 5", body)
	}
	if c.h.live.served.Load() != 1 {
		t.Error("the call did not take the session direct path")
	}
	// No event id went out: there is no stream to resume, so none is kept.
	if opened, appended := store.opened.Load(), store.appended.Load(); opened != 0 || appended != 0 {
		t.Errorf("event store: got %d streams opened and %d events kept, want none", opened, appended)
	}
}

// countedStore counts the streams opened and the events appended.
type countedStore struct {
	mcp.EventStore
	opened, appended atomic.Int64
}

func (s *countedStore) Open(ctx context.Context, session, stream string) error {
	s.opened.Add(1)
	return s.EventStore.Open(ctx, session, stream)
}

func (s *countedStore) Append(ctx context.Context, session, stream string, data []byte) error {
	s.appended.Add(1)
	return s.EventStore.Append(ctx, session, stream, data)
}

// TestHTTPSessionCallClosed: Close cancels a session direct call that
// runs, as it cancels the SDK's.
func TestHTTPSessionCallClosed(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	c := newRawHTTP(t, waitBackend(started, cancelled), nil)
	session := c.initialize()
	go func() {
		resp := c.post(session, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}()
	<-started
	if c.h.live.served.Load() != 1 {
		t.Error("the call did not take the session direct path")
	}
	c.h.Close()
	select {
	case <-cancelled:
	case <-time.After(time.Minute):
		t.Fatal("Close did not cancel the call")
	}
}

// TestHTTPResumeAfterDrop drops a call's event stream after its priming
// event: the call goes on, and a GET with Last-Event-ID gets its answer,
// whether the call ended before the GET (replayed from the event store) or
// as it came (perhaps sent on the resumed stream).
func TestHTTPResumeAfterDrop(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ answeredFirst, sdkOnly bool }{{true, false}, {false, false}, {true, true}, {false, true}} {
		answeredFirst := tt.answeredFirst
		t.Run("answered first "+strconv.FormatBool(answeredFirst)+" SDK only "+strconv.FormatBool(tt.sdkOnly), func(t *testing.T) {
			t.Parallel()
			started, release := make(chan struct{}), make(chan struct{})
			c := newRawHTTP(t, releaseBackend(started, release), nil)
			if tt.sdkOnly {
				c.h.live = nil
			}
			session := c.initialize()
			ctx, drop := context.WithCancel(t.Context())
			resp := c.do(ctx, http.MethodPost, session, "",
				`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
			first, ok := readEvent(t, bufio.NewReader(resp.Body))
			if !ok {
				t.Fatal("the stream ended with no event")
			}
			last := checkPriming(t, first)
			<-started
			drop()
			resp.Body.Close()
			// Wait until the server has seen the POST end: no other POST
			// follows.
			<-c.h.posts.drain()
			if answeredFirst {
				close(release)
			} else {
				// The SDK sends the headers of a resumed stream with its
				// first event.
				go close(release)
			}
			resp = c.do(t.Context(), http.MethodGet, session, last, "")
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				body, _ := io.ReadAll(resp.Body)
				t.Fatalf("GET with Last-Event-ID: got %s %s, want 200", resp.Status, body)
			}
			r := bufio.NewReader(resp.Body)
			for {
				ev, ok := readEvent(t, r)
				if !ok {
					t.Fatal("the resumed stream ended with no answer to the call")
				}
				if id, ok := mcpwire.ResponseID([]byte(ev["data"])); ok && id == "5" {
					if !strings.Contains(ev["data"], `"result"`) {
						t.Errorf("answer: got %s, want a result", ev["data"])
					}
					if !tt.sdkOnly && c.h.live.served.Load() != 1 {
						t.Error("the call did not take the session direct path")
					}
					return
				}
			}
		})
	}
}

// do sends a request of session with ctx: a POST of body, or a GET that
// resumes after the event lastEventID.
func (c *rawHTTP) do(ctx context.Context, method, session, lastEventID, body string) *http.Response {
	c.t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, c.url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	} else {
		req.Header.Set("Accept", "text/event-stream")
	}
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp
}

// TestHTTPResumeCancelledNoAnswer cancels a call, then resumes its event
// stream: the resumed stream has no answer either.
func TestHTTPResumeCancelledNoAnswer(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	c := newRawHTTP(t, waitBackend(started, cancelled), nil)
	session := c.initialize()
	resp := c.post(session, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
	defer func() {
		if c.h.live.served.Load() != 1 {
			t.Error("the call did not take the session direct path")
		}
	}()
	r := bufio.NewReader(resp.Body)
	first, ok := readEvent(t, r)
	if !ok {
		t.Fatal("the stream ended with no event")
	}
	primed := checkPriming(t, first)
	<-started
	cancel := c.post(session, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"no longer needed"}}`)
	cancel.Body.Close()
	<-cancelled
	// The call's stream ends once the SDK has answered it.
	noAnswer(t, r, "5", "the call's stream")
	resp.Body.Close()
	resp = c.do(t.Context(), http.MethodGet, session, primed, "")
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET with Last-Event-ID: got %s %s, want 200", resp.Status, body)
	}
	noAnswer(t, bufio.NewReader(resp.Body), "5", "the resumed stream")
}

// noAnswer reads an event stream to its end and reports an answer to the
// request id in it.
func noAnswer(t *testing.T, r *bufio.Reader, id, stream string) {
	t.Helper()
	for {
		ev, ok := readEvent(t, r)
		if !ok {
			return
		}
		if got, ok := mcpwire.ResponseID([]byte(ev["data"])); ok && got == id {
			t.Errorf("%s answers the cancelled call %s: %s", stream, id, ev["data"])
		}
	}
}

// TestHTTPDuplicateID: a request whose id is that of a call in flight in
// its session is refused as the SDK refuses it, whichever path runs the
// call.
func TestHTTPDuplicateID(t *testing.T) {
	t.Parallel()
	answers := map[bool][]string{}
	for _, sdkOnly := range []bool{false, true} {
		started, release := make(chan struct{}), make(chan struct{})
		c := newRawHTTP(t, releaseBackend(started, release), nil)
		if sdkOnly {
			c.h.live = nil
		}
		session := c.initialize()
		call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"wait","arguments":{}}}`
		resp := c.post(session, call)
		<-started
		for _, body := range []string{call, `{"jsonrpc":"2.0","id":5,"method":"ping"}`} {
			dup := c.post(session, body)
			data, _ := io.ReadAll(dup.Body)
			dup.Body.Close()
			answers[sdkOnly] = append(answers[sdkOnly], dup.Status+" "+dup.Header.Get("Content-Type")+" "+dup.Header.Get("Cache-Control")+" "+string(data))
		}
		close(release)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if !sdkOnly && c.h.live.served.Load() != 1 {
			t.Error("the call did not take the session direct path")
		}
	}
	for i := range answers[true] {
		if answers[false][i] != answers[true][i] {
			t.Errorf("duplicate %d:\ndirect: %s\nSDK:    %s", i, answers[false][i], answers[true][i])
		}
	}
	if !strings.Contains(answers[true][0], "duplicate in-flight request ID 5") {
		t.Errorf("SDK: %s, want the duplicate refused", answers[true][0])
	}
}

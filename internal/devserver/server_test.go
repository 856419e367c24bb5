package devserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/devserver"
	"github.com/modkit/modkit/internal/testenv"
	"github.com/modkit/modkit/sdk"
)

// cacheDir is the test mods' build cache, shared with the other packages'
// tests and across runs: its keys hash the mods' sources.
var cacheDir string

func TestMain(m *testing.M) {
	testenv.LeanLinks() // the mods the tests build
	var err error
	if cacheDir, err = testenv.ModCache(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

const (
	crashyDir = "../../host/testdata/mods/crashy"
	quickDir  = "../../host/testdata/mods/quick"
	token     = "s3cret"
)

// fixture is a running inspector.
type fixture struct {
	// ws is the session's workspace.
	ws  string
	t   *testing.T
	srv *devserver.Server
	ts  *httptest.Server
}

func start(t *testing.T, dirs ...string) *fixture { return startWith(t, nil, dirs...) }

// startWith is start with the server keeping spans in spans, when set.
func startWith(t *testing.T, spans *devserver.Spans, dirs ...string) *fixture {
	t.Helper()
	opts := &host.Options{CacheDir: cacheDir, Progress: io.Discard}
	load := func() (*host.Host, error) { return host.Load(dirs, opts) }
	h, err := load()
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	ws := t.TempDir()
	srv, err := devserver.New(h, &devserver.Options{
		Token: token, Addr: ts.Listener.Addr().String(), Dirs: dirs, Load: load,
		Session: sdk.Session{ID: "test", Workspace: ws}, Spans: spans,
	})
	if err != nil {
		h.Close()
		t.Fatal(err)
	}
	ts.Config.Handler = srv
	ts.Start()
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	return &fixture{ws: ws, t: t, srv: srv, ts: ts}
}

// do sends a request with the token in its header, and returns the status
// and body.
func (f *fixture) do(method, path string, body any) (int, []byte) {
	f.t.Helper()
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			f.t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, f.ts.URL+path, r)
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("X-Modhost-Token", token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// decode is do for a JSON answer with the wanted status.
func (f *fixture) decode(method, path string, body any, want int, v any) {
	f.t.Helper()
	code, out := f.do(method, path, body)
	if code != want {
		f.t.Fatalf("%s %s: got %d %s, want %d", method, path, code, out, want)
	}
	if err := json.Unmarshal(out, v); err != nil {
		f.t.Fatalf("%s %s: %v in %s", method, path, err, out)
	}
}

type event struct {
	ID, Name string
	Data     map[string]any
}

// events reads a call's event stream to its end.
func (f *fixture) events(id string) []event {
	f.t.Helper()
	resp, err := http.Get(f.ts.URL + "/api/calls/" + id + "/events?token=" + token)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		f.t.Fatalf("events: got Content-Type %q, want text/event-stream", ct)
	}
	var evs []event
	var cur event
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch k, v, _ := strings.Cut(line, ": "); k {
		case "id":
			cur.ID = v
		case "event":
			cur.Name = v
		case "data":
			if err := json.Unmarshal([]byte(v), &cur.Data); err != nil {
				f.t.Fatalf("event data %q: %v", v, err)
			}
		case "":
			if line == "" && cur.Name != "" {
				evs = append(evs, cur)
				cur = event{}
			}
		}
	}
	return evs
}

type callJSON struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Outcome *struct {
		Status string          `json:"status"`
		Text   string          `json:"text"`
		Error  string          `json:"error"`
		Result json.RawMessage `json:"result"`
	} `json:"outcome"`
}

func (f *fixture) call(tool, input, agent string) string {
	f.t.Helper()
	var c callJSON
	f.decode("POST", "/api/calls", map[string]any{"tool": tool, "input": json.RawMessage(input), "agent": agent}, http.StatusAccepted, &c)
	return c.ID
}

// outcome waits for the call's outcome through its event stream.
func (f *fixture) outcome(id string) map[string]any {
	f.t.Helper()
	evs := f.events(id)
	if len(evs) == 0 || evs[len(evs)-1].Name != "outcome" {
		f.t.Fatalf("call %s: events %v do not end with the outcome", id, evs)
	}
	return evs[len(evs)-1].Data
}

func TestTokenRequired(t *testing.T) {
	t.Parallel()
	f := start(t, quickDir)
	id := f.call("quick_echo", `{"text":"hi"}`, "")
	f.outcome(id)
	endpoints := []struct{ method, path string }{
		{"GET", "/"},
		{"GET", "/api/state"},
		{"POST", "/api/check"},
		{"POST", "/api/calls"},
		{"GET", "/api/calls"},
		{"GET", "/api/calls/" + id},
		{"GET", "/api/calls/" + id + "/events"},
		{"POST", "/api/calls/" + id + "/cancel"},
		{"POST", "/api/calls/" + id + "/view"},
		{"POST", "/api/calls/" + id + "/answer"},
		{"POST", "/api/calls/" + id + "/question"},
		{"GET", "/api/tools/quick_echo/mcp"},
		{"POST", "/api/command"},
		{"POST", "/api/slash"},
		{"POST", "/api/prompt"},
		{"POST", "/api/complete"},
		{"POST", "/api/read"},
		{"GET", "/api/events"},
	}
	for _, e := range endpoints {
		for _, tok := range []string{"", "?token=wrong", "?token=" + token[:len(token)-1]} {
			req, _ := http.NewRequest(e.method, f.ts.URL+e.path+tok, strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("%s %s%s: got %d, want 403", e.method, e.path, tok, resp.StatusCode)
			}
		}
	}
	// The token in the query works as in the header.
	resp, err := http.Get(f.ts.URL + "/?token=" + token)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Contains(page, []byte(`content="`+token+`"`)) {
		t.Errorf("GET /?token=: got %d, want 200 and the page carrying its token", resp.StatusCode)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("page CSP: got %q", csp)
	}
}

func TestHostAndOrigin(t *testing.T) {
	t.Parallel()
	f := start(t, quickDir)
	port := f.ts.Listener.Addr().(interface{ String() string }).String()
	port = port[strings.LastIndex(port, ":"):]
	for _, tc := range []struct {
		host, origin string
		want         int
	}{
		{"127.0.0.1" + port, "", http.StatusOK},
		{"localhost" + port, "", http.StatusOK},
		{"127.0.0.1" + port, "http://127.0.0.1" + port, http.StatusOK},
		{"evil.example" + port, "", http.StatusForbidden},                 // DNS rebinding
		{"127.0.0.1:1", "", http.StatusForbidden},                         // another port
		{"127.0.0.1" + port, "http://evil.example", http.StatusForbidden}, // another site
		{"127.0.0.1" + port, "http://localhost" + port, http.StatusForbidden},
		{"127.0.0.1" + port, "null", http.StatusForbidden}, // a sandboxed view
	} {
		req, _ := http.NewRequest("GET", f.ts.URL+"/api/state", nil)
		req.Host = tc.host
		req.Header.Set("X-Modhost-Token", token)
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("Host %s, Origin %q: got %d, want %d", tc.host, tc.origin, resp.StatusCode, tc.want)
		}
	}
	// A form post from another page cannot send JSON without a preflight.
	req, _ := http.NewRequest("POST", f.ts.URL+"/api/calls", strings.NewReader(`{"tool":"quick_echo"}`))
	req.Header.Set("X-Modhost-Token", token)
	req.Header.Set("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain call: got %d, want 415", resp.StatusCode)
	}
}

func TestState(t *testing.T) {
	t.Parallel()
	f := start(t, crashyDir, quickDir, "testdata/nosuchmod")
	var st struct {
		Mods []struct {
			ID     string `json:"id"`
			Tools  []struct{ Name string }
			Agents []struct {
				Name  string
				Tools []string
			}
			Hooks []struct{ BeforeAction string }
		}
		Unavailable []struct{ Dir, Reason, Error string }
		Permissions map[string][]string
	}
	f.decode("GET", "/api/state", nil, http.StatusOK, &st)
	if got := st.Permissions["crashy"]; strings.Join(got, "|") != "writes the workspace|receives MODKIT_TEST_CRASHY_START" {
		t.Errorf("crashy's permissions: got %q, want that it writes the workspace and receives its variable", got)
	}
	if got := st.Permissions["quick"]; len(got) != 1 || !strings.HasPrefix(got[0], "reads the workspace only") {
		t.Errorf("quick's permissions: got %q, want that it reads the workspace only", got)
	}
	if len(st.Mods) != 2 || st.Mods[0].ID != "crashy" || st.Mods[1].ID != "quick" {
		t.Fatalf("mods: got %+v, want crashy and quick", st.Mods)
	}
	if a := st.Mods[0].Agents; len(a) != 1 || a[0].Name != "echoer" || strings.Join(a[0].Tools, ",") != "crashy_echo" {
		t.Errorf("crashy's agents: got %+v, want echoer with its allowlist", a)
	}
	if len(st.Mods[0].Hooks) == 0 {
		t.Errorf("crashy's hooks: got none")
	}
	if len(st.Unavailable) != 1 || st.Unavailable[0].Dir != "testdata/nosuchmod" || !strings.Contains(st.Unavailable[0].Error, "no such mod directory") {
		t.Errorf("unavailable: got %+v, want testdata/nosuchmod with its error", st.Unavailable)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	f := start(t, quickDir)
	var res struct {
		Problems []struct{ Path, Message string }
	}
	f.decode("POST", "/api/check", map[string]any{"tool": "quick_activity", "input": map[string]any{"logs": -1}}, http.StatusOK, &res)
	if len(res.Problems) != 1 || res.Problems[0].Path != "/logs" || res.Problems[0].Message == "" {
		t.Errorf("problems: got %+v, want one at /logs", res.Problems)
	}
	f.decode("POST", "/api/check", map[string]any{"tool": "quick_activity", "input": map[string]any{"logs": 2}}, http.StatusOK, &res)
	if len(res.Problems) != 0 {
		t.Errorf("valid input: got %+v, want no problems", res.Problems)
	}
	if code, _ := f.do("POST", "/api/check", map[string]any{"tool": "quick_nope"}); code != http.StatusNotFound {
		t.Errorf("unknown tool: got %d, want 404", code)
	}
}

func TestCallEvents(t *testing.T) {
	t.Parallel()
	f := start(t, quickDir)
	id := f.call("quick_activity", `{"logs": 5}`, "")
	evs := f.events(id)
	var got []string
	for i, e := range evs {
		if e.ID != fmt.Sprint(i) {
			t.Errorf("event %d has id %q", i, e.ID)
		}
		if e.Name == "activity" {
			got = append(got, fmt.Sprintf("%v %v", e.Data["kind"], e.Data["text"]))
		} else {
			got = append(got, fmt.Sprintf("%s %v %v", e.Name, e.Data["status"], e.Data["text"]))
		}
	}
	want := []string{"title Working", "log step 1", "log step 2", "log step 3", "log step 4", "log step 5", "status done", "outcome completed ok"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\ngot  %q\nwant %q", got, want)
	}
	// A second reader, as a reopened history entry, gets the same events.
	if again := f.events(id); len(again) != len(evs) {
		t.Errorf("replay: got %d events, want %d", len(again), len(evs))
	}
	var c callJSON
	f.decode("GET", "/api/calls/"+id, nil, http.StatusOK, &c)
	if c.Status != "completed" || c.Outcome == nil || c.Outcome.Text != "ok" {
		t.Errorf("call: got %+v, want completed with text ok", c)
	}
	var list []callJSON
	f.decode("GET", "/api/calls", nil, http.StatusOK, &list)
	if len(list) != 1 || list[0].ID != id {
		t.Errorf("history: got %+v, want the one call", list)
	}
}

func TestCancelReachesHandler(t *testing.T) {
	t.Parallel()
	f := start(t, crashyDir)
	dir := f.ws // crashy_wait writes its markers in the workspace, as it may
	started, marker := filepath.Join(dir, "started"), filepath.Join(dir, "marker")
	input, _ := json.Marshal(map[string]string{"started": started, "marker": marker})
	id := f.call("crashy_wait", string(input), "")
	for end := time.Now().Add(5 * time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the handler did not start")
		}
	}
	if code, out := f.do("POST", "/api/calls/"+id+"/cancel", nil); code != http.StatusAccepted {
		t.Fatalf("cancel: got %d %s", code, out)
	}
	if o := f.outcome(id); o["status"] != "cancelled" {
		t.Errorf("outcome: got %v, want cancelled", o)
	}
	for end := time.Now().Add(5 * time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(marker); err == nil {
			break // the handler saw its context end
		}
		if time.Now().After(end) {
			t.Fatal("the handler never saw the cancellation")
		}
	}
	if code, _ := f.do("POST", "/api/calls/nope/cancel", nil); code != http.StatusNotFound {
		t.Errorf("cancel of no call: got %d, want 404", code)
	}
}

func TestRefusedAndBlocked(t *testing.T) {
	t.Parallel()
	f := start(t, crashyDir)
	o := f.outcome(f.call("crashy_fail", `{}`, "echoer"))
	if o["status"] != "refused" || !strings.Contains(fmt.Sprint(o["error"]), "agent echoer may not call tool crashy_fail") {
		t.Errorf("agent refusal: got %v", o)
	}
	o = f.outcome(f.call("crashy_echo", `{"text":"as echoer"}`, "echoer"))
	if o["status"] != "completed" {
		t.Errorf("allowed call: got %v, want completed", o)
	}
	o = f.outcome(f.call("crashy_blocked", `{}`, ""))
	if o["status"] != "failed" || !strings.Contains(fmt.Sprint(o["error"]), "blocked by a hook of mod crashy: crashy_blocked is never allowed") {
		t.Errorf("hook: got %v, want failed, blocked by the hook", o)
	}
}

func TestCommands(t *testing.T) {
	t.Parallel()
	f := start(t, crashyDir)
	var res struct {
		OK     bool
		Output string
		Error  string
	}
	f.decode("POST", "/api/command", map[string]any{"id": "crashy.hello", "args": "x"}, http.StatusOK, &res)
	if !res.OK || res.Output != `hello "x"` {
		t.Errorf("command: got %+v", res)
	}
	f.decode("POST", "/api/command", map[string]any{"id": "crashy.refused"}, http.StatusOK, &res)
	if res.OK || !strings.Contains(res.Error, "not today") {
		t.Errorf("refused command: got %+v, want the hook's reason", res)
	}
	f.decode("POST", "/api/slash", map[string]any{"id": "shout", "text": "hey there"}, http.StatusOK, &res)
	if !res.OK || res.Output != "HEY THERE" {
		t.Errorf("slash: got %+v", res)
	}
	if code, _ := f.do("POST", "/api/command", map[string]any{"id": "nope"}); code != http.StatusNotFound {
		t.Errorf("unknown command: got %d, want 404", code)
	}
}

func TestView(t *testing.T) {
	t.Parallel()
	f := start(t, crashyDir)
	id := f.call("crashy_report", `{"title":"two words"}`, "")
	if o := f.outcome(id); o["status"] != "completed" {
		t.Fatalf("outcome: got %v", o)
	}
	var v struct{ HTML string }
	f.decode("POST", "/api/calls/"+id+"/view", map[string]string{"phase": "completed"}, http.StatusOK, &v)
	if v.HTML != "<p>two words: 2 words</p>" {
		t.Errorf("completed view: got %q", v.HTML)
	}
	f.decode("POST", "/api/calls/"+id+"/view", map[string]string{"phase": "running"}, http.StatusOK, &v)
	if v.HTML != "<p>running two words</p>" {
		t.Errorf("running view: got %q", v.HTML)
	}
	if code, _ := f.do("POST", "/api/calls/"+id+"/view", map[string]string{"phase": "sideways"}); code != http.StatusUnprocessableEntity {
		t.Errorf("unknown phase: got %d, want 422", code)
	}
}

func TestEventsStream(t *testing.T) {
	t.Parallel()
	f := start(t, quickDir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.ts.URL+"/api/events?token="+token, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	if !sc.Scan() || sc.Text() != ": hello" {
		t.Fatalf("first line: got %q", sc.Text())
	}
	// Then the state's version, which no event has changed yet.
	var head []string
	for i := 0; i < 3 && sc.Scan(); i++ {
		head = append(head, sc.Text())
	}
	if want := []string{"", "event: version", `data: {"version":0}`}; strings.Join(head, "\n") != strings.Join(want, "\n") {
		t.Fatalf("stream head: got %q, want %q", head, want)
	}
	id := f.call("quick_echo", `{"text":"x"}`, "")
	// One event when the call starts, one when it ends.
	for n := 0; n < 2; {
		if !sc.Scan() {
			t.Fatalf("got %d call events, want 2", n)
		}
		if sc.Text() == "event: call" {
			n++
		}
	}
	f.outcome(id)
}

func TestAllowedHosts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		addr, host string
		want       bool
	}{
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		{"127.0.0.1:8080", "localhost:8080", true},
		{"127.0.0.1:8080", "[::1]:8080", true},
		{"127.0.0.1:8080", "localhost:8081", false},
		{"127.0.0.1:8080", "attacker.example:8080", false},
		{"192.0.2.7:8080", "192.0.2.7:8080", true},
		{"192.0.2.7:8080", "localhost:8080", false},
		{"0.0.0.0:8080", "127.0.0.1:8080", true},
		{"0.0.0.0:8080", "attacker.example:8080", false},
	} {
		srv, err := devserver.New(nil, &devserver.Options{Token: token, Addr: tc.addr})
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest("GET", "/api/nothing?token="+token, nil)
		req.Host = tc.host
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if got := w.Code != http.StatusForbidden; got != tc.want {
			t.Errorf("addr %s, Host %s: got %d, want allowed=%v", tc.addr, tc.host, w.Code, tc.want)
		}
	}
	if _, err := devserver.New(nil, &devserver.Options{Token: token, Addr: "nonsense"}); err == nil {
		t.Error("New with a bad address: got no error")
	}
	if _, err := devserver.New(nil, &devserver.Options{Addr: "127.0.0.1:1"}); err == nil {
		t.Error("New without a token: got no error")
	}
}

package mcpbridge

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/audit"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
)

// lockedBuffer is a buffer the audit log's writer and a test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// auditRecords closes log and reads back the records it wrote to out.
func auditRecords(t *testing.T, log *audit.Log, out *lockedBuffer) []audit.Record {
	t.Helper()
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	out.mu.Lock()
	defer out.mu.Unlock()
	recs, err := audit.ReadRecords(bytes.NewReader(out.b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// checkRecord compares the fields of got that do not vary with want's,
// and checks the others are set.
func checkRecord(t *testing.T, got, want audit.Record) {
	t.Helper()
	if got.Time.IsZero() || got.DurationMS < 0 {
		t.Errorf("%s %s: time %v, duration %v: want both set", got.Method, got.Tool, got.Time, got.DurationMS)
	}
	if want.Transport == audit.HTTP && !strings.HasPrefix(got.Remote, "127.0.0.1:") {
		t.Errorf("%s %s: remote_addr: got %q, want the client's loopback address", got.Method, got.Tool, got.Remote)
	}
	got.Time, got.DurationMS, got.Remote = time.Time{}, 0, ""
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if !bytes.Equal(gj, wj) {
		t.Errorf("record:\ngot  %s\nwant %s", gj, wj)
	}
}

func TestAuditHTTP(t *testing.T) {
	t.Parallel()
	var out lockedBuffer
	log := audit.New(&out, &audit.Options{Replica: "replica-1"})
	fb := scopedBackend(scopedTools...)
	inner := fb.call
	fb.call = func(ctx context.Context, req *host.CallRequest) *host.CallResult {
		if strings.Contains(string(req.Input), "deny") {
			return &host.CallResult{Status: host.StatusDenied, Text: "denied", ApprovalReason: "write a note"}
		}
		return inner(ctx, req)
	}
	is := mcpauthtest.NewIssuer(t)
	url := serveAuthWith(t, func(string) string { return is.URL }, fb, &Options{Audit: log}, HTTPOptions{})
	token := is.Sign(t, "rsa", is.Claims(url, "", time.Now()))

	// A call in a 2025-11-25 session and a stateless one of 2026-07-28.
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connectAs(t, url, version, token)
		if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "open_tool", Arguments: map[string]any{"v": version}}); err != nil {
			t.Fatal(err)
		}
	}
	cs := connectAs(t, url, "2026-07-28", token)
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "open_tool", Arguments: map[string]any{"deny": true}}); err != nil {
		t.Fatal(err)
	}
	// Refused: a scope the token lacks (403), and no token (401).
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"write_tool","arguments":{"note":"x"}}}`
	if resp := postBody(t, url, "Bearer "+token, call); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("out of scope: got %d, want 403", resp.StatusCode)
	}
	if resp := postBody(t, url, "", call); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no token: got %d, want 401", resp.StatusCode)
	}

	recs := auditRecords(t, log, &out)
	if bytes.Contains(out.b.Bytes(), []byte(token)) {
		t.Fatal("the audit log holds the access token")
	}
	user := audit.Principal{Sub: "user-1", ClientID: "client-1"}
	want := []audit.Record{
		{Principal: user, Transport: audit.HTTP, Method: "tools/call", Tool: "open_tool", ArgumentsSHA256: sha256Hex(`{"v":"2025-11-25"}`), Outcome: audit.Completed, Replica: "replica-1"},
		{Principal: user, Transport: audit.HTTP, Method: "tools/call", Tool: "open_tool", ArgumentsSHA256: sha256Hex(`{"v":"2026-07-28"}`), Outcome: audit.Completed, Replica: "replica-1"},
		{Principal: user, Transport: audit.HTTP, Method: "tools/call", Tool: "open_tool", ArgumentsSHA256: sha256Hex(`{"deny":true}`), Outcome: audit.Denied,
			Approval: &audit.Approval{Reason: "write a note", Decision: audit.Declined}, Replica: "replica-1"},
		{Principal: user, Transport: audit.HTTP, Method: "tools/call", Tool: "write_tool", ArgumentsSHA256: sha256Hex(`{"note":"x"}`), Outcome: audit.Refused, Status: 403, Replica: "replica-1"},
		{Transport: audit.HTTP, Method: "tools/call", Tool: "write_tool", ArgumentsSHA256: sha256Hex(`{"note":"x"}`), Outcome: audit.Refused, Status: 401, Replica: "replica-1"},
	}
	if len(recs) != len(want) {
		t.Fatalf("got %d records, want %d:\n%s", len(recs), len(want), out.b.String())
	}
	for i := range want {
		checkRecord(t, recs[i], want[i])
	}
}

func TestAuditStdio(t *testing.T) {
	t.Parallel()
	var out lockedBuffer
	log := audit.New(&out, &audit.Options{Replica: "r", Arguments: true})
	srv, err := NewServer(scopedBackend(scopedTools...), &Options{Audit: log, Scopes: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"open_tool","arguments":{"a":1}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"write_tool","arguments":{}}}`,
	}, "\n")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := srv.ServeStdio(ctx, strings.NewReader(in), &bytes.Buffer{}, nil); err != nil {
		t.Fatal(err)
	}
	recs := auditRecords(t, log, &out)
	local := audit.LocalPrincipal()
	if !strings.HasPrefix(local.Sub, "local:") {
		t.Errorf("local principal: got %q, want local:NAME", local.Sub)
	}
	want := []audit.Record{
		{Principal: local, Transport: audit.Stdio, Method: "tools/call", Tool: "open_tool", ArgumentsSHA256: sha256Hex(`{"a":1}`), Arguments: json.RawMessage(`{"a":1}`), Outcome: audit.Completed, Replica: "r"},
		// --scopes holds none: write_tool is refused.
		{Principal: local, Transport: audit.Stdio, Method: "tools/call", Tool: "write_tool", ArgumentsSHA256: sha256Hex(`{}`), Arguments: json.RawMessage(`{}`), Outcome: audit.Refused, Replica: "r"},
	}
	if len(recs) != len(want) {
		t.Fatalf("got %d records, want %d:\n%s", len(recs), len(want), out.b.String())
	}
	// The two calls run concurrently: their records come in either order.
	if recs[0].Tool != "open_tool" {
		recs[0], recs[1] = recs[1], recs[0]
	}
	for i := range want {
		checkRecord(t, recs[i], want[i])
	}
}

// postBody posts body to url with the Authorization header authz, if any.
func postBody(t *testing.T, url, authz, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func TestAuditTasks(t *testing.T) {
	t.Parallel()
	var out lockedBuffer
	log := audit.New(&out, nil)
	b := newTaskBackend()
	srv, err := NewServer(b, &Options{TaskLease: time.Second, Audit: log})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(nil)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { ts.Close(); h.Close() })
	id := startWork(t, ts.URL, "a")
	close(b.release)
	pollUntilEnded(t, ts.URL, id)
	if _, e := post(t, ts.URL, "tasks/get", "nope", map[string]any{"taskId": "nope"}, withTasks); e == nil {
		t.Fatal("tasks/get of an unknown task: no error")
	}
	recs := auditRecords(t, log, &out)
	if len(recs) < 3 {
		t.Fatalf("got %d records, want the call, its polls and the unknown task's:\n%s", len(recs), out.b.String())
	}
	first, last := recs[0], recs[len(recs)-1]
	if first.Method != "tools/call" || first.Tool != "work" || first.Task != id || first.Outcome != audit.Completed || first.Transport != audit.HTTP {
		t.Errorf("the call's record: got %+v, want tools/call of work that became task %s", first, id)
	}
	for _, r := range recs[1 : len(recs)-1] {
		if r.Method != "tasks/get" || r.Task != id || r.Outcome != audit.Completed {
			t.Errorf("a poll's record: got %+v, want tasks/get of %s, completed", r, id)
		}
	}
	if last.Method != "tasks/get" || last.Task != "nope" || last.Outcome != audit.Failed {
		t.Errorf("the unknown task's record: got %+v, want tasks/get of nope, failed", last)
	}
}

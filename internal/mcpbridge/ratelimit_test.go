package mcpbridge

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/audit"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/internal/ratelimit"
	"github.com/modkit/modkit/internal/testserver"
)

// stoppedClock is a clock that does not move: a bucket never refills.
func stoppedClock() time.Time { return time.Unix(1000, 0) }

// postRPC posts body, a request of revision 2026-07-28, to url with the Authorization header authz, if any,
// and returns the response with its body read.
func postRPC(t *testing.T, url, authz, body string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(protocolHeader, sessionless)
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	json.Unmarshal([]byte(body), &m)
	req.Header.Set("Mcp-Method", m.Method)
	if m.Params.Name != "" {
		req.Header.Set("Mcp-Name", m.Params.Name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, data
}

func TestRateLimitByAddress(t *testing.T) {
	t.Parallel()
	srv, err := NewServer(scopedBackend(scopedTools...), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(&HTTPOptions{RateLimit: ratelimit.NewMemory(2, stoppedClock)})
	t.Cleanup(h.Close)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	list := `{"jsonrpc":"2.0","id":"a1","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`
	for i := range 2 {
		if resp, body := postRPC(t, ts.URL, "", list); resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d: got %d %s, want 200", i+1, resp.StatusCode, body)
		}
	}
	resp, body := postRPC(t, ts.URL, "", list)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "1" {
		t.Fatalf("request 3: got %d with Retry-After %q, want 429 with 1", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	var e struct {
		ID    string `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.ID != "a1" || e.Error.Code != codeRateLimited || !strings.HasPrefix(e.Error.Message, "too many requests") {
		t.Errorf("body: got %s (%v), want a JSON-RPC error %d answering a1", body, err, codeRateLimited)
	}
	// GET is limited too.
	req, _ := http.NewRequest("GET", ts.URL, nil)
	get, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	get.Body.Close()
	if get.StatusCode != http.StatusTooManyRequests {
		t.Errorf("GET: got %d, want 429", get.StatusCode)
	}
}

func TestRateLimitByPrincipal(t *testing.T) {
	t.Parallel()
	var out lockedBuffer
	log := audit.New(&out, nil)
	is := mcpauthtest.NewIssuer(t)
	url := serveAuthWith(t, func(string) string { return is.URL }, scopedBackend(scopedTools...), &Options{Audit: log},
		HTTPOptions{RateLimit: ratelimit.NewMemory(2, stoppedClock)})
	claims := is.Claims(url, "", time.Now())
	alice := is.Sign(t, "rsa", claims)
	claims["sub"] = "user-2"
	bob := is.Sign(t, "rsa", claims)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"open_tool","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`
	for i := range 2 {
		if resp, body := postRPC(t, url, "Bearer "+alice, call); resp.StatusCode != http.StatusOK {
			t.Fatalf("alice's request %d: got %d %s, want 200", i+1, resp.StatusCode, body)
		}
	}
	if resp, _ := postRPC(t, url, "Bearer "+alice, call); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("alice's third: got %d, want 429", resp.StatusCode)
	}
	// Bob has a bucket of his own, though he comes from the same address.
	if resp, body := postRPC(t, url, "Bearer "+bob, call); resp.StatusCode != http.StatusOK {
		t.Fatalf("bob's first: got %d %s, want 200", resp.StatusCode, body)
	}
	recs := auditRecords(t, log, &out)
	var outcomes []string
	for _, r := range recs {
		outcomes = append(outcomes, r.Principal.Sub+" "+r.Outcome)
		if r.Outcome == audit.Refused && r.Status != http.StatusTooManyRequests {
			t.Errorf("refused record: status %d, want 429", r.Status)
		}
	}
	if got, want := strings.Join(outcomes, ", "), "user-1 completed, user-1 completed, user-1 refused, user-2 completed"; got != want {
		t.Errorf("audit: got %s, want %s", got, want)
	}
}

// TestRateLimitAcrossReplicas: two replicas whose limiters share one Redis
// hold a caller to one rate between them.
func TestRateLimitAcrossReplicas(t *testing.T) {
	t.Parallel()
	r := testserver.StartRedis(t)
	var urls []string
	for range 2 {
		limiter, err := ratelimit.NewRedis(r.URL(), 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { limiter.Close() })
		srv, err := NewServer(scopedBackend(scopedTools...), nil)
		if err != nil {
			t.Fatal(err)
		}
		h := srv.NewHTTPHandler(&HTTPOptions{RateLimit: limiter})
		ts := httptest.NewServer(h)
		t.Cleanup(func() { ts.Close(); h.Close() })
		urls = append(urls, ts.URL)
	}
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`
	// Ten requests, alternating replicas, from one address: the shared
	// bucket lets the burst of 2 through, and about 2 a second after.
	allowed := 0
	start := time.Now()
	for i := range 10 {
		resp, _ := postRPC(t, urls[i%2], "", list)
		switch resp.StatusCode {
		case http.StatusOK:
			allowed++
		case http.StatusTooManyRequests:
		default:
			t.Fatalf("request %d: got %d, want 200 or 429", i+1, resp.StatusCode)
		}
	}
	// The bucket refills 2 a second while the requests run: each replica
	// alone would have let 4 through at least.
	refilled := int(time.Since(start).Seconds()*2) + 1
	if allowed < 2 || allowed > 2+refilled {
		t.Errorf("allowed %d of 10 across two replicas, want the shared burst of 2 (and at most %d refilled)", allowed, refilled)
	}
}

// TestRateLimitUnauthorized: with authorization, each 401 takes one from
// its client address's bucket; over the rate the address gets 429 instead,
// and then 429 before any token of it is checked, while a token verified
// before is not held up. The 429s are audited as the 401s are.
func TestRateLimitUnauthorized(t *testing.T) {
	t.Parallel()
	var out lockedBuffer
	log := audit.New(&out, nil)
	is := mcpauthtest.NewIssuer(t)
	// Two a second, on a clock that does not move: a bucket never
	// refills, and an address over it is blocked for half a second.
	url := serveAuthWith(t, func(string) string { return is.URL }, scopedBackend(scopedTools...), &Options{Audit: log},
		HTTPOptions{RateLimit: ratelimit.NewMemory(2, stoppedClock)})
	good := is.Sign(t, "rsa", is.Claims(url, "", time.Now()))
	forged := is.Sign(t, "rsa", is.Claims("https://another.example/mcp", "", time.Now()))
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"open_tool","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`
	// A good token's first request takes nothing from its address's.
	if resp, body := postRPC(t, url, "Bearer "+good, call); resp.StatusCode != http.StatusOK {
		t.Fatalf("the good token: got %d %s, want 200", resp.StatusCode, body)
	}
	for i, authz := range []string{"", "Bearer " + forged} {
		if resp, body := postRPC(t, url, authz, call); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("bad request %d: got %d %s, want 401", i+1, resp.StatusCode, body)
		}
	}
	for i := range 2 {
		resp, body := postRPC(t, url, "Bearer "+forged, call)
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || resp.Header.Get("WWW-Authenticate") != "" {
			t.Fatalf("bad token %d: got %d %v %s, want 429 with Retry-After and no challenge", i+1, resp.StatusCode, resp.Header, body)
		}
		if !strings.Contains(string(body), `"code":-32000`) {
			t.Errorf("the 429's body: got %s, want a JSON-RPC error %d", body, codeRateLimited)
		}
	}
	// The good token, verified before, is not held up by its address.
	if resp, body := postRPC(t, url, "Bearer "+good, call); resp.StatusCode != http.StatusOK {
		t.Fatalf("the good token again: got %d %s, want 200", resp.StatusCode, body)
	}
	var got []string
	for _, r := range auditRecords(t, log, &out) {
		got = append(got, fmt.Sprintf("%s %s %d", r.Principal.Sub, r.Outcome, r.Status))
	}
	if want := "user-1 completed 0,  refused 401,  refused 401,  refused 429,  refused 429, user-1 completed 0"; strings.Join(got, ", ") != want {
		t.Errorf("audit: got %q, want %q", strings.Join(got, ", "), want)
	}
}

package mcpbridge_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/internal/mcpbridge"
	"github.com/modkit/modkit/sdk"
)

var whoamiDir = filepath.Join("..", "..", "host", "testdata", "mods", "whoami")

// withToken adds a bearer token to each request.
type withToken struct{ token string }

func (w withToken) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+w.token)
	return http.DefaultTransport.RoundTrip(req)
}

// serveMods serves the mods of dirs over streamable HTTP behind the
// tokens of the issuer issuerFor returns for the endpoint's URL, passing
// on the claims pass, and returns that URL.
func serveMods(t *testing.T, issuerFor func(resource string) string, pass []string, dirs ...string) string {
	t.Helper()
	srv, err := mcpbridge.NewServer(loadHost(t, dirs...), nil)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	resource := ts.URL + mcpbridge.HTTPPath
	auth, err := mcpauth.New(t.Context(), &mcpauth.Options{Issuer: issuerFor(resource), Resource: resource, Claims: pass})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(&mcpbridge.HTTPOptions{Auth: auth})
	t.Cleanup(h.Close)
	mux.Handle(mcpbridge.HTTPPath, h)
	return resource
}

// connectBy connects a client of version with token to url.
func connectBy(t *testing.T, url, version, token string, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: withToken{token}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).
		Connect(t.Context(), transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// whoami calls the whoami tool and returns the caller its handler read.
func whoami(t *testing.T, cs *mcp.ClientSession) (sdk.Caller, string) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "whoami", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("whoami: got %v %+v", err, res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var c sdk.Caller
	if err := json.Unmarshal([]byte(text), &c); err != nil {
		t.Fatalf("whoami: got %q: %v", text, err)
	}
	return c, text
}

// TestCallerOverHTTP: a tool's handler, in its mod's process, reads the
// subject, client id and scopes of the caller's access token and the
// claims the operator passes on, over either revision; never the token,
// nor a claim not passed on.
func TestCallerOverHTTP(t *testing.T) {
	t.Parallel()
	is := mcpauthtest.NewIssuer(t)
	url := serveMods(t, func(string) string { return is.URL }, []string{"email", "groups", "missing"}, whoamiDir)
	claims := is.Claims(url, "notes.read notes.write", time.Now())
	claims["sub"], claims["client_id"] = "ada", "app-1"
	claims["email"], claims["groups"], claims["secret"] = "ada@example.com", []string{"staff", "ops"}, "not passed on"
	token := is.Sign(t, "rsa", claims)
	want := sdk.Caller{Subject: "ada", ClientID: "app-1", Scopes: []string{"notes.read", "notes.write"},
		Claims: map[string]json.RawMessage{"email": json.RawMessage(`"ada@example.com"`), "groups": json.RawMessage(`["staff","ops"]`)}}
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		got, text := whoami(t, connectBy(t, url, version, token, nil))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the handler read %+v, want %+v", version, got, want)
		}
		signature := token[strings.LastIndex(token, ".")+1:]
		if strings.Contains(text, signature) || strings.Contains(text, "not passed on") {
			t.Errorf("%s: the handler read %s: the token, or a claim not passed on", version, text)
		}
	}
}

// TestCallerOIDCProvider: a client credentials token of oidc-provider
// reaches the handler as its client, with the scopes granted.
func TestCallerOIDCProvider(t *testing.T) {
	t.Parallel()
	var issuer string
	url := serveMods(t, func(resource string) string {
		issuer = mcpauthtest.StartOIDCProvider(t, resource)
		return issuer
	}, nil, whoamiDir)
	token := mcpauthtest.ClientCredentials(t, issuer, "writer", "writer-secret", url, "notes.read notes.write")
	got, _ := whoami(t, connectBy(t, url, "2026-07-28", token, nil))
	if got.ClientID != "writer" || !got.HasScope("notes.write") || !got.HasScope("notes.read") || got.Local || got.AllScopes || got.Claims != nil {
		t.Errorf("the handler read %+v, want the client writer with notes.read and notes.write, and no claims", got)
	}
}

// TestSessionBelongsToItsPrincipal: a request on a 2025-11-25 session with
// another principal's token is refused with 403; the session's own
// principal, by another client, is served. The SDK refuses it (403
// "session user mismatch"): the token is valid, and the session is not
// its principal's.
func TestSessionBelongsToItsPrincipal(t *testing.T) {
	t.Parallel()
	is := mcpauthtest.NewIssuer(t)
	url := serveMods(t, func(string) string { return is.URL }, nil, whoamiDir)
	tokenOf := func(sub, clientID string) string {
		claims := is.Claims(url, "", time.Now())
		claims["client_id"] = clientID
		if sub == "" {
			delete(claims, "sub")
		} else {
			claims["sub"] = sub
		}
		return is.Sign(t, "rsa", claims)
	}
	// post sends body (tools/list by default) on session id with token,
	// and returns the status and the body.
	post := func(id, token string, msgs ...string) (int, string) {
		msg := `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`
		if len(msgs) > 0 {
			msg = msgs[0]
		}
		req, _ := http.NewRequest("POST", url, strings.NewReader(msg))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		req.Header.Set("Mcp-Session-Id", id)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for _, tc := range []struct {
		name          string
		owner, other  string // tokens
		sameSubject   string
		ownerByClient bool
	}{
		{name: "another subject", owner: tokenOf("ada", "app-1"), other: tokenOf("bob", "app-1"), sameSubject: tokenOf("ada", "app-2")},
		{name: "another client without subject", owner: tokenOf("", "app-1"), other: tokenOf("", "app-2"), sameSubject: tokenOf("", "app-1")},
		{name: "a subject's session, a client without one", owner: tokenOf("ada", "app-1"), other: tokenOf("", "app-1"), sameSubject: tokenOf("ada", "app-1")},
	} {
		// A client that cannot be asked: its calls take the session direct
		// path, which refuses another principal's as the SDK does.
		cs := connectBy(t, url, "2025-11-25", tc.owner, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
		if status, body := post(cs.ID(), tc.other); status != http.StatusForbidden {
			t.Errorf("%s: got %d %s, want 403", tc.name, status, body)
		}
		call := `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"whoami","arguments":{}}}`
		if status, body := post(cs.ID(), tc.other, call); status != http.StatusForbidden {
			t.Errorf("%s: tools/call: got %d %s, want 403", tc.name, status, body)
		}
		if status, body := post(cs.ID(), tc.sameSubject, call); status != http.StatusOK || !strings.Contains(body, `\"clientId\":\"app-1\"`) {
			t.Errorf("%s: tools/call by the session's principal: got %d %s, want the session's caller", tc.name, status, body)
		}
		if status, body := post(cs.ID(), tc.sameSubject); status != http.StatusOK || !strings.Contains(body, "whoami") {
			t.Errorf("%s: the session's principal: got %d %s, want the tools", tc.name, status, body)
		}
		// The session goes on for its principal.
		if got, _ := whoami(t, cs); got.ClientID == "" {
			t.Errorf("%s: the handler read %+v, want the session's client", tc.name, got)
		}
	}
}

// TestRequestStateBelongsToItsPrincipal: a requestState sealed for one
// principal's call is refused, naming why, when another principal sends
// it back, and opens for its own.
func TestRequestStateBelongsToItsPrincipal(t *testing.T) {
	t.Parallel()
	is := mcpauthtest.NewIssuer(t)
	url := serveMods(t, func(string) string { return is.URL }, nil, askingDir)
	tokenOf := func(sub string) string {
		claims := is.Claims(url, "", time.Now())
		claims["sub"] = sub
		return is.Sign(t, "rsa", claims)
	}
	copts := (&client{}).options()
	copts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	ada := connectBy(t, url, "2026-07-28", tokenOf("ada"), copts)
	bob := connectBy(t, url, "2026-07-28", tokenOf("bob"), copts)
	first, err := ada.CallTool(t.Context(), &mcp.CallToolParams{Name: "asking_greet", Arguments: map[string]any{}})
	if err != nil || !first.NeedsInput() || first.RequestState == "" {
		t.Fatalf("got %+v, %v; want an input request with a state", first, err)
	}
	name := mcp.InputResponseMap{"name": accept(map[string]any{"name": "Ada"})}
	retry := &mcp.CallToolParams{Name: "asking_greet", Arguments: map[string]any{}, RequestState: first.RequestState, InputResponses: name}
	res, err := bob.CallTool(t.Context(), retry)
	if want := "requestState: belongs to a call by another principal"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("bob sending ada's state: got %+v, %v; want an error containing %q", res, err, want)
	}
	// Her answer taken, the tool asks its next question.
	res, err = ada.CallTool(t.Context(), retry)
	if _, next := res.InputRequests["color"]; err != nil || res.IsError || !next {
		t.Errorf("ada sending her state: got %+v, %v; want the next question, color", res, err)
	}
}

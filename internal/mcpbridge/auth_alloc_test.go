package mcpbridge

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
)

// TestAuthDirectCallAllocs: behind HTTPOptions.Auth, a direct call with a
// token verified before allocates no more than the same call without
// authorization, but for its Authorization header: the principal goes
// into the call's context, with no context and no copy of the request of
// its own.
func TestAuthDirectCallAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	srv, err := NewServer(newTaskBackend(), nil)
	if err != nil {
		t.Fatal(err)
	}
	plain := srv.NewHTTPHandler(nil)
	t.Cleanup(plain.Close)
	is := mcpauthtest.NewIssuer(t)
	resource := "http://127.0.0.1" + HTTPPath
	auth, err := mcpauth.New(t.Context(), &mcpauth.Options{Issuer: is.URL, Resource: resource})
	if err != nil {
		t.Fatal(err)
	}
	authed := srv.NewHTTPHandler(&HTTPOptions{Auth: auth})
	t.Cleanup(authed.Close)
	authz := "Bearer " + is.Sign(t, "rsa", is.Claims(resource, "", time.Now()))
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"plain","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	call := func(h http.Handler, authorization string) func() {
		return func() {
			req := httptest.NewRequest("POST", resource, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "plain")
			if authorization != "" {
				req.Header.Set("Authorization", authorization)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if !strings.Contains(w.Body.String(), `"resultType":"complete"`) {
				t.Fatalf("got %d %s", w.Code, w.Body)
			}
		}
	}
	call(authed, authz)() // verified, and cached
	withToken := testing.AllocsPerRun(200, call(authed, authz))
	without := testing.AllocsPerRun(200, call(plain, ""))
	// The header's value: one allocation of the test's own.
	if withToken > without+1 {
		t.Errorf("got %v allocations a call with a cached token, %v without; want at most one more", withToken, without)
	}
}

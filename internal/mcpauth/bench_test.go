package mcpauth_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
)

// BenchmarkProtect is what Protect adds to a request whose token was
// verified before (cached): parsing the header, hashing the token, the
// cache and the SDK's TokenInfo.
func BenchmarkProtect(b *testing.B) {
	is := mcpauthtest.NewIssuer(b)
	r := newResource(b, is, nil)
	token := is.Sign(b, "ec", is.Claims(testResource, "notes.read notes.write", time.Now()))
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	for _, bb := range []struct {
		name string
		h    http.Handler
	}{
		{"plain", ok},
		{"protected", r.Protect(ok)},
		// As the MCP handler has it: the SDK's TokenInfo only for what the
		// SDK serves.
		{"protected_no_tokeninfo", r.ProtectWith(ok, &mcpauth.ProtectOptions{NoTokenInfo: true})},
		// As the MCP handler has it now: the principal handed over, to go
		// into a context the handler makes anyway.
		{"protected_serve_principal", r.ProtectWith(nil, &mcpauth.ProtectOptions{ServePrincipal: func(w http.ResponseWriter, req *http.Request, _ *mcpauth.Principal) {
			ok.ServeHTTP(w, req)
		}})},
	} {
		b.Run(bb.name, func(b *testing.B) {
			w := httptest.NewRecorder()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/mcp", nil)
				req.Header.Set("Authorization", "Bearer "+token)
				bb.h.ServeHTTP(w, req)
				if w.Code != http.StatusNoContent {
					b.Fatalf("got %d", w.Code)
				}
			}
		})
	}
}

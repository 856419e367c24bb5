package mcpauth_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
)

func TestProtect(t *testing.T) {
	is := mcpauthtest.NewIssuer(t)
	r := newResource(t, is, nil)
	var seen http.Header
	var principal *mcpauth.Principal
	var info *sdkauth.TokenInfo
	h := r.Protect(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		seen = req.Header.Clone()
		principal = mcpauth.PrincipalFrom(req.Context())
		info = sdkauth.TokenInfoFromContext(req.Context())
		io.WriteString(w, "served")
	}))
	good := is.Sign(t, "ec", is.Claims(testResource, "notes.read notes.write", time.Now()))
	expired := is.Sign(t, "ec", with(is.Claims(testResource, "notes.read notes.write", time.Now()), map[string]any{"exp": time.Now().Add(-time.Hour).Unix()}))
	const meta = `resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp", scope="notes.write notes.read"`
	tests := []struct {
		name      string
		header    []string
		status    int
		challenge string // the WWW-Authenticate header's start
	}{
		{"no token", nil, 401, "Bearer " + meta},
		{"basic", []string{"Basic dXNlcjpwdw=="}, 401, "Bearer " + meta + `, error="invalid_request"`},
		{"two tokens", []string{"Bearer " + good, "Bearer " + good}, 401, "Bearer " + meta + `, error="invalid_request"`},
		{"expired", []string{"Bearer " + expired}, 401, "Bearer " + meta + `, error="invalid_token", error_description="invalid token: the token expired at`},
		{"good", []string{"Bearer " + good}, 200, ""},
		{"good, lower-case scheme", []string{"bearer " + good}, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			principal, info, seen = nil, nil, nil
			req := httptest.NewRequest("POST", "/mcp", strings.NewReader("{}"))
			for _, v := range tt.header {
				req.Header.Add("Authorization", v)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != tt.status {
				t.Fatalf("got status %d (%s), want %d", w.Code, w.Body, tt.status)
			}
			got := w.Header().Get("WWW-Authenticate")
			if tt.status == 200 {
				if principal == nil || principal.Subject != "user-1" || info == nil || info.UserID != principal.Key() {
					t.Fatalf("got principal %+v and token info %+v, want both of user-1, the session bound to the principal's key", principal, info)
				}
				if seen.Get("Authorization") != "" {
					t.Errorf("the handler saw the Authorization header; want it removed")
				}
				return
			}
			if !strings.HasPrefix(got, tt.challenge) {
				t.Errorf("got WWW-Authenticate %q, want it to start %q", got, tt.challenge)
			}
			if tt.challenge == "Bearer "+meta && got != tt.challenge {
				t.Errorf("got WWW-Authenticate %q, want %q: no error code for a request with no token", got, tt.challenge)
			}
			var body struct {
				JSONRPC string
				ID      any
				Error   struct {
					Code    int
					Message string
				}
			}
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.JSONRPC != "2.0" || body.Error.Code != mcpauth.CodeUnauthorized {
				t.Errorf("got body %s (%v), want a JSON-RPC error %d", w.Body, err, mcpauth.CodeUnauthorized)
			}
			if len(tt.header) > 0 && strings.Contains(w.Body.String()+got, good[len(good)-12:]) {
				t.Errorf("the answer quotes the token")
			}
		})
	}
}

func TestForbid(t *testing.T) {
	is := mcpauthtest.NewIssuer(t)
	r := newResource(t, is, nil)
	w := httptest.NewRecorder()
	r.Forbid(w, json.RawMessage(`7`), "tool research_save_note", []string{"notes.write", "notes.admin"})
	want := `Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp", scope="notes.write notes.admin", error="insufficient_scope"`
	if got := w.Header().Get("WWW-Authenticate"); w.Code != 403 || !strings.HasPrefix(got, want) {
		t.Errorf("got %d with WWW-Authenticate %q, want 403 starting %q", w.Code, got, want)
	}
	if !strings.HasPrefix(w.Body.String(), `{"jsonrpc":"2.0","id":7,"error":{"code":-32001,"message":"insufficient scope: tool research_save_note needs the scopes notes.write notes.admin"`) {
		t.Errorf("got body %s, want a JSON-RPC error answering id 7", w.Body)
	}
}

func TestMetadata(t *testing.T) {
	is := mcpauthtest.NewIssuer(t)
	r := newResource(t, is, nil)
	if got, want := strings.Join(r.MetadataPaths(), " "), "/.well-known/oauth-protected-resource/mcp /.well-known/oauth-protected-resource"; got != want {
		t.Errorf("got metadata paths %q, want %q", got, want)
	}
	w := httptest.NewRecorder()
	r.MetadataHandler().ServeHTTP(w, httptest.NewRequest("GET", mcpauth.MetadataPath+"/mcp", nil))
	want := `{"resource":"https://mcp.example/mcp","authorization_servers":["` + is.URL + `"],"scopes_supported":["notes.read","notes.write"],"bearer_methods_supported":["header"]}`
	if got := w.Body.String(); w.Code != 200 || got != want {
		t.Errorf("got %d %s, want 200 %s", w.Code, got, want)
	}
}

func TestParseAuthorization(t *testing.T) {
	tests := []struct{ header, token string }{
		{"Bearer abc.DEF-_~+/==", "abc.DEF-_~+/=="},
		{"bearer  abc", "abc"},
		{"BEARER abc", "abc"},
		{"Bearer", ""},
		{"Bearer ", ""},
		{"Bearer a b", ""},
		{"Bearer a=b", ""},
		{"Bearer ==", ""},
		{"Bearer\tabc", ""},
		{"Basic abc", ""},
		{"Bearer abc\x00", ""},
	}
	for _, tt := range tests {
		got, err := mcpauth.ParseAuthorization(tt.header)
		if got != tt.token || (err == nil) != (tt.token != "") {
			t.Errorf("ParseAuthorization(%q): got %q, %v; want %q", tt.header, got, err, tt.token)
		}
	}
}

func FuzzParseAuthorization(f *testing.F) {
	for _, s := range []string{"Bearer abc", "bearer  a.b.c", "Basic x", "Bearer a=b", "Bearer ==", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		token, err := mcpauth.ParseAuthorization(header)
		if err != nil {
			if token != "" {
				t.Fatalf("got token %q with error %v", token, err)
			}
			return
		}
		// What is accepted is one bearer token, as the MCP SDK's own
		// middleware (which reads the header again) reads it too.
		fields := strings.Fields(header)
		if len(fields) != 2 || !strings.EqualFold(fields[0], "bearer") || fields[1] != token {
			t.Fatalf("accepted %q as token %q, which the SDK reads as %q", header, token, fields)
		}
		if strings.TrimRight(token, "=") == "" {
			t.Fatalf("accepted %q: a token of padding alone", header)
		}
	})
}

// TestNoTokenInfo: behind ProtectOptions.NoTokenInfo a handler sees the
// principal without the SDK's TokenInfo, and what it wraps in
// SDKTokenInfo sees both, the principal's TokenInfo, with no
// Authorization header, on the first request (verified) and the next
// (cached).
func TestNoTokenInfo(t *testing.T) {
	is := mcpauthtest.NewIssuer(t)
	r := newResource(t, is, nil)
	type seen struct {
		principal *mcpauth.Principal
		info      *sdkauth.TokenInfo
		header    []string
	}
	var outer, inner seen
	look := func(s *seen, req *http.Request) {
		*s = seen{mcpauth.PrincipalFrom(req.Context()), sdkauth.TokenInfoFromContext(req.Context()), req.Header.Values("Authorization")}
	}
	sdkSide := r.SDKTokenInfo(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		look(&inner, req)
	}))
	h := r.ProtectWith(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		look(&outer, req)
		sdkSide.ServeHTTP(w, req)
	}), &mcpauth.ProtectOptions{NoTokenInfo: true})
	token := is.Sign(t, "ec", is.Claims(testResource, "notes.read", time.Now()))
	for _, round := range []string{"verified", "cached"} {
		outer, inner = seen{}, seen{}
		req := httptest.NewRequest("POST", "/mcp", strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: got status %d (%s), want 200", round, w.Code, w.Body)
		}
		if outer.principal == nil || outer.info != nil || outer.header != nil {
			t.Errorf("%s: handler got principal %v, TokenInfo %v, Authorization %q; want a principal, no TokenInfo, no header", round, outer.principal, outer.info, outer.header)
		}
		if inner.principal != outer.principal || inner.info == nil || inner.info != outer.principal.TokenInfo() || inner.info.UserID != outer.principal.Key() || inner.header != nil {
			t.Errorf("%s: SDK side got principal %v, TokenInfo %+v, Authorization %q; want the principal, its TokenInfo, no header", round, inner.principal, inner.info, inner.header)
		}
	}
}

// TestServePrincipal: behind ProtectOptions.ServePrincipal a verified
// request, with no Authorization header, goes to it with its principal,
// on the first request (verified) and the next (cached); a request
// without a valid token gets 401 and never reaches it.
func TestServePrincipal(t *testing.T) {
	is := mcpauthtest.NewIssuer(t)
	r := newResource(t, is, nil)
	var got []*mcpauth.Principal
	h := r.ProtectWith(nil, &mcpauth.ProtectOptions{ServePrincipal: func(w http.ResponseWriter, req *http.Request, p *mcpauth.Principal) {
		if v := req.Header.Values("Authorization"); v != nil {
			t.Errorf("got Authorization %q, want none", v)
		}
		if q := mcpauth.PrincipalFrom(req.Context()); q != nil {
			t.Errorf("got a principal in the request's context, want none")
		}
		got = append(got, p)
	}})
	token := is.Sign(t, "ec", is.Claims(testResource, "notes.read", time.Now()))
	for _, authz := range []string{"Bearer " + token, "Bearer " + token, "", "Bearer x.y.z"} {
		req := httptest.NewRequest("POST", "/mcp", nil)
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if want := http.StatusOK; authz == "" || authz == "Bearer x.y.z" {
			if w.Code != http.StatusUnauthorized {
				t.Errorf("%q: got status %d, want 401", authz, w.Code)
			}
		} else if w.Code != want {
			t.Errorf("got status %d, want %d", w.Code, want)
		}
	}
	if len(got) != 2 || got[0] == nil || got[0] != got[1] {
		t.Errorf("got principals %v, want the same one twice", got)
	}
}

// TestWithPrincipalValue: one context carries the principal and the value,
// and its parent's values.
func TestWithPrincipalValue(t *testing.T) {
	type key struct{}
	type other struct{}
	p := &mcpauth.Principal{Subject: "alice"}
	parent := context.WithValue(context.Background(), other{}, "parent")
	ctx := mcpauth.WithPrincipalValue(parent, p, key{}, "value")
	if got := mcpauth.PrincipalFrom(ctx); got != p {
		t.Errorf("got principal %v, want %v", got, p)
	}
	if got := ctx.Value(key{}); got != "value" {
		t.Errorf("got value %v, want %q", got, "value")
	}
	if got := ctx.Value(other{}); got != "parent" {
		t.Errorf("got the parent's value %v, want %q", got, "parent")
	}
	if got := mcpauth.PrincipalFrom(mcpauth.WithPrincipal(parent, p)); got != p {
		t.Errorf("WithPrincipal: got principal %v, want %v", got, p)
	}
	if got := mcpauth.PrincipalFrom(parent); got != nil {
		t.Errorf("got principal %v from a context without one, want nil", got)
	}
}

package mcpauth_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/mcpauth"
)

// introspector is an authorization server in a test whose tokens are
// opaque: it serves metadata without a key set, and an introspection
// endpoint answering each token as answers has it (active false for
// others), to the client "rs" with the secret "rs secret".
type introspector struct {
	*httptest.Server
	mu      sync.Mutex
	answers map[string]string // token -> the JSON answer
	status  int               // when not 0, the endpoint's status instead
	asked   atomic.Int32
}

func newIntrospector(t *testing.T) *introspector {
	in := &introspector{answers: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"issuer": in.URL, "introspection_endpoint": in.URL + "/introspect"})
	})
	mux.HandleFunc("POST /introspect", func(w http.ResponseWriter, req *http.Request) {
		in.asked.Add(1)
		id, secret, _ := req.BasicAuth()
		if id != "rs" || secret != "rs+secret" { // form-encoded, RFC 6749 §2.3.1
			http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
			return
		}
		in.mu.Lock()
		defer in.mu.Unlock()
		if in.status != 0 {
			w.WriteHeader(in.status)
			return
		}
		answer, ok := in.answers[req.PostFormValue("token")]
		if !ok {
			answer = `{"active":false}`
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(answer))
	})
	in.Server = httptest.NewServer(mux)
	t.Cleanup(in.Close)
	return in
}

func (in *introspector) answer(token, answer string) {
	in.mu.Lock()
	in.answers[token] = answer
	in.mu.Unlock()
}

func (in *introspector) resource(t *testing.T, c *clock) *mcpauth.Resource {
	t.Helper()
	r, err := mcpauth.New(context.Background(), &mcpauth.Options{Issuer: in.URL, Resource: testResource, Now: c.Now,
		Introspection: &mcpauth.Introspection{URL: in.URL + "/introspect", ClientID: "rs", ClientSecret: "rs secret"}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestIntrospection(t *testing.T) {
	in := newIntrospector(t)
	c := &clock{now: time.Unix(1_900_000_000, 0)}
	r := in.resource(t, c)
	exp := c.now.Add(time.Hour).Unix()
	good := func(changes map[string]any) string {
		claims := with(map[string]any{"active": true, "iss": in.URL, "aud": []string{"https://other.example", testResource},
			"sub": "user-1", "client_id": "client-1", "scope": "notes.read notes.write", "exp": exp, "token_type": "Bearer"}, changes)
		data, _ := json.Marshal(claims)
		return string(data)
	}
	tests := []struct {
		name, answer string
		want         string // the refusal's words; "" for accepted
	}{
		{"good", good(nil), ""},
		{"good, no iss nor token_type", good(map[string]any{"iss": nil, "token_type": nil}), ""},
		{"not active", `{"active":false}`, "the authorization server says the token is not active"},
		{"another audience", good(map[string]any{"aud": "https://other.example"}), "the token is for another audience"},
		{"no audience", good(map[string]any{"aud": nil}), "the token is for another audience"},
		{"another issuer", good(map[string]any{"iss": "https://evil.example"}), "the token is from another issuer"},
		{"no expiry", good(map[string]any{"exp": nil}), "the token has no expiry"},
		{"expired", good(map[string]any{"exp": c.now.Add(-time.Hour).Unix()}), "the token expired at"},
		{"not yet valid", good(map[string]any{"nbf": c.now.Add(time.Hour).Unix()}), "the token is not valid before"},
		{"a refresh token", good(map[string]any{"token_type": "refresh_token"}), `the token is a "refresh_token" token`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			token := "opaque-" + strings.Repeat("x", i)
			in.answer(token, tt.answer)
			p, err := r.Verify(context.Background(), token)
			if tt.want == "" {
				if err != nil || p.Subject != "user-1" || p.ClientID != "client-1" || !slices.Equal(p.Scopes, []string{"notes.read", "notes.write"}) || p.Expiry.Unix() != exp {
					t.Fatalf("got %+v, %v; want user-1's principal", p, err)
				}
				if _, ok := p.Claims["token_type"]; !ok && strings.Contains(tt.answer, "token_type") {
					t.Errorf("got claims %v, want the answer's members", p.Claims)
				}
				return
			}
			var te *mcpauth.TokenError
			if !errors.As(err, &te) || !strings.Contains(te.Reason, tt.want) {
				t.Fatalf("got %+v, %v; want a token error saying %q", p, err, tt.want)
			}
		})
	}
	// A JWT-shaped token is introspected too: the issuer has no keys.
	in.answer("a.b.c", good(nil))
	if _, err := r.Verify(context.Background(), "a.b.c"); err != nil {
		t.Errorf("a JWT-shaped token with an issuer without keys: got %v, want it introspected and accepted", err)
	}
}

func TestIntrospectionCachesUntilExpiry(t *testing.T) {
	in := newIntrospector(t)
	c := &clock{now: time.Unix(1_900_000_000, 0)}
	r := in.resource(t, c)
	in.answer("tok", `{"active":true,"aud":"`+testResource+`","sub":"u","exp":`+jsonInt(c.now.Add(time.Minute).Unix())+`}`)
	before := in.asked.Load()
	for range 3 {
		if _, err := r.Verify(context.Background(), "tok"); err != nil {
			t.Fatal(err)
		}
	}
	if got := in.asked.Load() - before; got != 1 {
		t.Errorf("three checks of one token asked the endpoint %d times, want once", got)
	}
	c.Add(2 * time.Minute)
	if _, err := r.Verify(context.Background(), "tok"); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Errorf("after its expiry: got %v, want the token refused as expired", err)
	}
	if got := in.asked.Load() - before; got != 2 {
		t.Errorf("after its expiry the endpoint was asked %d times in all, want twice", got)
	}
}

func jsonInt(n int64) string {
	data, _ := json.Marshal(n)
	return string(data)
}

// TestIntrospectionUnavailable: an endpoint that fails is no verdict on
// the token: Verify says it is unavailable, and Protect answers 503
// without a challenge.
func TestIntrospectionUnavailable(t *testing.T) {
	in := newIntrospector(t)
	c := &clock{now: time.Unix(1_900_000_000, 0)}
	r := in.resource(t, c)
	for _, answer := range []string{`not json`, `[1]`, `{"scope":"x"}`, `{"active":"yes"}`} {
		in.answer("tok", answer)
		if _, err := r.Verify(context.Background(), "tok"); !errors.Is(err, mcpauth.ErrUnavailable) || errors.Is(err, mcpauth.ErrInvalidToken) {
			t.Errorf("answer %s: got %v, want ErrUnavailable", answer, err)
		}
	}
	in.mu.Lock()
	in.status = http.StatusInternalServerError
	in.mu.Unlock()
	w := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/mcp", strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer tok")
	r.Protect(http.NotFoundHandler()).ServeHTTP(w, req)
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("WWW-Authenticate") != "" || w.Header().Get("Retry-After") == "" ||
		!strings.Contains(w.Body.String(), "500 Internal Server Error") {
		t.Errorf("got %d %v %s, want 503 with Retry-After, no challenge, a body naming the endpoint's status", w.Code, w.Header(), w.Body)
	}
}

func TestNewChecksIntrospection(t *testing.T) {
	in := newIntrospector(t)
	tests := []struct {
		name string
		in   mcpauth.Introspection
		want string
	}{
		{"wrong secret", mcpauth.Introspection{URL: in.URL + "/introspect", ClientID: "rs", ClientSecret: "nope"}, "401 Unauthorized (are the client credentials right?)"},
		{"wrong URL", mcpauth.Introspection{URL: in.URL + "/nowhere", ClientID: "rs", ClientSecret: "rs secret"}, "404 Not Found"},
		{"not https", mcpauth.Introspection{URL: "http://auth.example/introspect", ClientID: "rs", ClientSecret: "rs secret"}, "want an https URL"},
		{"no secret", mcpauth.Introspection{URL: in.URL + "/introspect", ClientID: "rs"}, "no client id or secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mcpauth.New(context.Background(), &mcpauth.Options{Issuer: in.URL, Resource: testResource, Introspection: &tt.in})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
	// Without introspection, an issuer with no key set is refused.
	if _, err := mcpauth.New(context.Background(), &mcpauth.Options{Issuer: in.URL, Resource: testResource}); err == nil || !strings.Contains(err.Error(), "jwks_uri") {
		t.Errorf("an issuer without keys, no introspection: got %v, want jwks_uri refused", err)
	}
}

func TestReadClientCredentials(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text string
		want       string // the error's words; "" for read
	}{
		{"good", `{"client_id": "rs", "client_secret": "s3cret"}` + "\n", ""},
		{"two lines", "rs\ns3cret\n", "want a JSON object"},
		{"no id", `{"client_secret": "s3cret"}`, "client_id is missing or empty"},
		{"empty secret", `{"client_id": "rs", "client_secret": ""}`, "client_secret is missing or empty"},
		{"an unknown member", `{"client_id": "rs", "client_secret": "s", "secret": "s"}`, `unknown field "secret"`},
		{"two objects", `{"client_id": "rs", "client_secret": "s"} {}`, "more follows it"},
		{"a number", `{"client_id": 7, "client_secret": "s"}`, "want a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(name, []byte(tt.text), 0o600); err != nil {
				t.Fatal(err)
			}
			in, err := mcpauth.ReadClientCredentials(name)
			if tt.want == "" {
				if err != nil || in.ClientID != "rs" || in.ClientSecret != "s3cret" {
					t.Fatalf("got %+v, %v; want rs and s3cret", in, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), name) {
				t.Errorf("got %v, want an error naming the file and saying %q", err, tt.want)
			}
		})
	}
	if _, err := mcpauth.ReadClientCredentials(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file: got no error")
	}
}

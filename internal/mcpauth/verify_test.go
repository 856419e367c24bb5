package mcpauth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
)

const testResource = "https://mcp.example/mcp"

// clock is a settable clock for Options.Now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func newResource(t testing.TB, is *mcpauthtest.Issuer, c *clock) *mcpauth.Resource {
	t.Helper()
	opts := &mcpauth.Options{Issuer: is.URL, Resource: testResource, Scopes: []string{"notes.write", "notes.read"}}
	if c != nil {
		opts.Now = c.Now
	}
	r, err := mcpauth.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestVerifyGoodTokens(t *testing.T) {
	is := mcpauthtest.NewIssuer(t)
	r := newResource(t, is, nil)
	for kid := range mcpauthtest.Algorithms {
		t.Run(string(mcpauthtest.Algorithms[kid]), func(t *testing.T) {
			p, err := r.Verify(context.Background(), is.Sign(t, kid, is.Claims(testResource, "notes.read notes.write", time.Now())))
			if err != nil {
				t.Fatalf("got %v, want the token accepted", err)
			}
			if p.Subject != "user-1" || p.ClientID != "client-1" || strings.Join(p.Scopes, " ") != "notes.read notes.write" {
				t.Errorf("got subject %q, client %q, scopes %q; want user-1, client-1, notes.read notes.write", p.Subject, p.ClientID, p.Scopes)
			}
			if string(p.Claims["sub"]) != `"user-1"` {
				t.Errorf("got claim sub %s, want \"user-1\"", p.Claims["sub"])
			}
		})
	}
}

// with returns claims with the changes: a nil value deletes the claim.
func with(claims map[string]any, changes map[string]any) map[string]any {
	out := maps.Clone(claims)
	for k, v := range changes {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

func TestVerifyBadTokens(t *testing.T) {
	is := mcpauthtest.NewIssuer(t)
	r := newResource(t, is, nil)
	now := time.Now()
	good := is.Claims(testResource, "notes.read notes.write", now)
	otherKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	b64 := func(v any) string {
		data, _ := json.Marshal(v)
		return base64.RawURLEncoding.EncodeToString(data)
	}
	tests := []struct {
		name, token, reason string
	}{
		{"empty", "", "not a signed JWT"},
		{"not a JWT", "opaque-token-value", "not a signed JWT"},
		{"garbage parts", "a.b.c", "malformed"},
		{"expired", is.Sign(t, "rsa", with(good, map[string]any{"exp": now.Add(-time.Hour).Unix()})), "expired"},
		{"not yet valid", is.Sign(t, "ec", with(good, map[string]any{"nbf": now.Add(time.Hour).Unix()})), "not valid before"},
		{"no expiry", is.Sign(t, "ed", with(good, map[string]any{"exp": nil})), "no expiry"},
		{"other audience", is.Sign(t, "rsa", with(good, map[string]any{"aud": "https://other.example/mcp"})), "another audience"},
		{"no audience", is.Sign(t, "rsa", with(good, map[string]any{"aud": nil})), "another audience"},
		{"other issuer", is.Sign(t, "rsa", with(good, map[string]any{"iss": "https://evil.example"})), "another issuer"},
		{"alg none", b64(map[string]string{"alg": "none", "kid": "rsa"}) + "." + b64(good) + ".", `algorithm "none"`},
		{"HS256 with the public key", mcpauthtest.SignWith(t, jose.SigningKey{Algorithm: jose.HS256, Key: is.PublicPEM(t, "rsa")}, "rsa", good), `algorithm "HS256"`},
		{"unknown kid", mcpauthtest.SignWith(t, jose.SigningKey{Algorithm: jose.ES256, Key: otherKey}, "nobody", good), "unknown key"},
		{"other key, known kid", mcpauthtest.SignWith(t, jose.SigningKey{Algorithm: jose.ES256, Key: otherKey}, "ec", good), "does not verify"},
		{"alg of another key type", mcpauthtest.SignWith(t, jose.SigningKey{Algorithm: jose.ES256, Key: otherKey}, "rsa", good), "does not verify"},
		{"signature changed", flipSignature(is.Sign(t, "rsa", good)), "does not verify"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := r.Verify(context.Background(), tt.token)
			if err == nil {
				t.Fatalf("got principal %+v, want the token refused", p)
			}
			var te *mcpauth.TokenError
			if !errors.As(err, &te) || !errors.Is(err, mcpauth.ErrInvalidToken) {
				t.Fatalf("got error %T %v, want a *TokenError", err, err)
			}
			if !strings.Contains(te.Reason, tt.reason) {
				t.Errorf("got reason %q, want it to say %q", te.Reason, tt.reason)
			}
			if tt.token != "" && len(tt.token) > 10 && strings.Contains(err.Error(), tt.token[len(tt.token)-10:]) {
				t.Errorf("the error %q quotes the token", err)
			}
		})
	}
}

func TestVerifyCachesUntilExpiry(t *testing.T) {
	is := mcpauthtest.NewIssuer(t)
	c := &clock{now: time.Now()}
	r := newResource(t, is, c)
	token := is.Sign(t, "rsa", with(is.Claims(testResource, "notes.read notes.write", c.Now()), map[string]any{"exp": c.Now().Add(time.Minute).Unix()}))
	first, err := r.Verify(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	again, err := r.Verify(context.Background(), token)
	if err != nil || again != first {
		t.Fatalf("got %p, %v the second time; want the cached principal %p", again, err, first)
	}
	c.Add(time.Minute + mcpauth.DefaultLeeway)
	if _, err := r.Verify(context.Background(), token); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("got %v past the expiry, want the token expired", err)
	}
}

func TestUnknownKeyRefetchesRateLimited(t *testing.T) {
	is := mcpauthtest.NewIssuer(t)
	is.Publish("rsa")
	c := &clock{now: time.Now()}
	r := newResource(t, is, c)
	if got := is.KeyFetches(); got != 1 {
		t.Fatalf("got %d key set fetches at start, want 1", got)
	}
	// A key the issuer has not published yet: refused; the set was just
	// fetched, so it is not fetched again.
	token := is.Sign(t, "ec", is.Claims(testResource, "notes.read notes.write", c.Now()))
	if _, err := r.Verify(context.Background(), token); err == nil {
		t.Fatal("got a token of an unpublished key accepted")
	}
	if got := is.KeyFetches(); got != 1 {
		t.Fatalf("got %d fetches after an unknown kid within the interval, want 1", got)
	}
	// The issuer rotates the key in; past the interval, the unknown kid
	// fetches the set once, and the token passes.
	is.Publish("rsa", "ec")
	c.Add(mcpauth.DefaultRefreshInterval)
	if _, err := r.Verify(context.Background(), token); err != nil {
		t.Fatalf("got %v after the rotation, want the token accepted", err)
	}
	other := is.Sign(t, "ed", is.Claims(testResource, "notes.read notes.write", c.Now()))
	for range 5 {
		if _, err := r.Verify(context.Background(), other); err == nil {
			t.Fatal("got a token of an unpublished key accepted")
		}
	}
	if got := is.KeyFetches(); got != 2 {
		t.Fatalf("got %d fetches, want 2: one at start, one for the rotated key, none for a flood of unknown kids", got)
	}
}

func TestNewRefusesBadIssuers(t *testing.T) {
	is := mcpauthtest.NewIssuer(t)
	tests := []struct{ issuer, resource, want string }{
		{"http://issuer.example", testResource, "want an https URL"},
		{is.URL, "mcp.example/mcp", "not an absolute URL"},
		{is.URL, "https://mcp.example/mcp#x", "no query or fragment"},
		{is.URL + "/tenant", testResource, "no authorization server metadata"},
	}
	for _, tt := range tests {
		_, err := mcpauth.New(context.Background(), &mcpauth.Options{Issuer: tt.issuer, Resource: tt.resource})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%s, %s): got %v, want an error saying %q", tt.issuer, tt.resource, err, tt.want)
		}
	}
}

// flipSignature changes a character in the middle of a token's signature.
func flipSignature(token string) string {
	i := strings.LastIndexByte(token, '.') + 20
	c := byte('A')
	if token[i] == 'A' {
		c = 'B'
	}
	return token[:i] + string(c) + token[i+1:]
}

func TestWithdrawnKeyStopsVerifying(t *testing.T) {
	is := mcpauthtest.NewIssuer(t)
	c := &clock{now: time.Now()}
	r := newResource(t, is, c)
	claims := is.Claims(testResource, "", c.Now())
	claims["exp"] = c.Now().Add(3 * time.Hour).Unix()
	if _, err := r.Verify(context.Background(), is.Sign(t, "rsa", claims)); err != nil {
		t.Fatal(err)
	}
	// The issuer withdraws the key; within MaxKeyAge the set is not
	// fetched again for a known kid.
	is.Publish("ec")
	c.Add(time.Minute)
	claims["jti"] = "second"
	if _, err := r.Verify(context.Background(), is.Sign(t, "rsa", claims)); err != nil {
		t.Fatalf("got %v within MaxKeyAge, want the cached key still used", err)
	}
	c.Add(mcpauth.MaxKeyAge)
	claims["jti"] = "third"
	if _, err := r.Verify(context.Background(), is.Sign(t, "rsa", claims)); err == nil || !strings.Contains(err.Error(), "unknown key") {
		t.Fatalf("got %v past MaxKeyAge, want the withdrawn key unknown", err)
	}
	if got := is.KeyFetches(); got != 2 {
		t.Errorf("got %d key set fetches, want 2: at start and past MaxKeyAge, none more for the unknown kid within the interval", got)
	}
}

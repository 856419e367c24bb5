// Package mcpauthtest serves an OAuth authorization server's metadata and
// keys in tests, and signs access tokens with its keys.
package mcpauthtest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Algorithms are the algorithm each of the issuer's keys signs with, by
// kid.
var Algorithms = map[string]jose.SignatureAlgorithm{"rsa": jose.RS256, "ec": jose.ES256, "ed": jose.EdDSA}

// Issuer is an authorization server in a test: it serves RFC 8414
// metadata at its URL and a key set with the keys "rsa", "ec" and "ed".
type Issuer struct {
	*httptest.Server
	keys       map[string]crypto.Signer // by kid
	published  atomic.Value             // []string: the kids the key set lists
	keyFetches atomic.Int32
}

// NewIssuer starts an issuer, closed when the test ends.
func NewIssuer(t testing.TB) *Issuer {
	t.Helper()
	is, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(is.Close)
	return is
}

// Start starts an issuer, for a benchmark; Close stops it.
func Start() (*Issuer, error) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	is := &Issuer{keys: map[string]crypto.Signer{"rsa": rsaKey, "ec": ecKey, "ed": edKey}}
	is.Publish("rsa", "ec", "ed")
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"issuer": is.URL, "jwks_uri": is.URL + "/jwks", "token_endpoint": is.URL + "/token"})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, _ *http.Request) {
		is.keyFetches.Add(1)
		var set jose.JSONWebKeySet
		for _, kid := range is.published.Load().([]string) {
			set.Keys = append(set.Keys, jose.JSONWebKey{Key: is.keys[kid].Public(), KeyID: kid, Use: "sig"})
		}
		json.NewEncoder(w).Encode(set)
	})
	// Set before it serves: its handlers read is.URL.
	is.Server = httptest.NewUnstartedServer(mux)
	is.Start()
	return is, nil
}

// Publish makes the key set list the keys kids only.
func (is *Issuer) Publish(kids ...string) { is.published.Store(kids) }

// KeyFetches counts the fetches of the key set.
func (is *Issuer) KeyFetches() int { return int(is.keyFetches.Load()) }

// Sign returns a token signed by the key kid, with claims.
func (is *Issuer) Sign(t testing.TB, kid string, claims any) string {
	t.Helper()
	return SignWith(t, jose.SigningKey{Algorithm: Algorithms[kid], Key: is.keys[kid]}, kid, claims)
}

// SignToken returns a token signed by the key kid, with claims, for a
// benchmark.
func (is *Issuer) SignToken(kid string, claims any) (string, error) {
	return signToken(jose.SigningKey{Algorithm: Algorithms[kid], Key: is.keys[kid]}, kid, claims)
}

// SignWith returns a token signed with key, its header naming kid (none
// for "").
func SignWith(t testing.TB, key jose.SigningKey, kid string, claims any) string {
	t.Helper()
	token, err := signToken(key, kid, claims)
	if err != nil {
		t.Fatal(err)
	}
	return token
}

func signToken(key jose.SigningKey, kid string, claims any) (string, error) {
	opts := (&jose.SignerOptions{}).WithType("at+jwt")
	if kid != "" {
		opts = opts.WithHeader(jose.HeaderKey("kid"), kid)
	}
	signer, err := jose.NewSigner(key, opts)
	if err != nil {
		return "", err
	}
	return jwt.Signed(signer).Claims(claims).Serialize()
}

// Claims are the claims of a good token for resource, granting scope
// (space-separated), valid for an hour from now.
func (is *Issuer) Claims(resource, scope string, now time.Time) map[string]any {
	return map[string]any{
		"iss": is.URL, "aud": resource, "sub": "user-1", "client_id": "client-1",
		"scope": scope, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}
}

// PublicPEM is the PEM of the key kid's public half: what an attacker
// signs HS256 tokens with.
func (is *Issuer) PublicPEM(t testing.TB, kid string) []byte {
	der, err := x509.MarshalPKIXPublicKey(is.keys[kid].Public())
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

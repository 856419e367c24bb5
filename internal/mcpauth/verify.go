package mcpauth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/modkit/modkit/sdk"
)

// maxToken bounds the length of a token: a longer one is malformed.
const maxToken = 16 << 10

// ErrInvalidToken is what every refused token's error wraps.
var ErrInvalidToken = errors.New("invalid token")

// TokenError says why a token was refused. Its Reason never quotes the
// token.
type TokenError struct {
	Reason string
}

func (e *TokenError) Error() string { return "invalid token: " + e.Reason }

// Unwrap makes a TokenError match ErrInvalidToken.
func (e *TokenError) Unwrap() error { return ErrInvalidToken }

func invalid(format string, args ...any) error {
	return &TokenError{Reason: fmt.Sprintf(format, args...)}
}

// Principal is who a verified token speaks for. It never holds the token.
type Principal struct {
	// Subject is the token's sub: the user, or the client for a client
	// credentials grant.
	Subject string
	// ClientID is the client the token was issued to (client_id, or azp).
	ClientID string
	// Scopes are the scopes the token grants (scope, or scp).
	Scopes []string
	// Expiry is when the token expires.
	Expiry time.Time
	// Claims are all of the token's claims as issued.
	Claims map[string]json.RawMessage
	// Caller is the principal as a tool's handler reads it
	// (sdk.ToolContext.Caller): its subject, client id and scopes, and
	// the claims Options.Claims passes on. Never the token.
	Caller *sdk.Caller

	key string // Key, made once by Verify
	// info is what Protect hands the MCP SDK for each request of this
	// principal, made once.
	info *sdkauth.TokenInfo
}

// Missing returns the scopes of required that p lacks, in their order.
func (p *Principal) Missing(required []string) []string {
	var missing []string
	for _, s := range required {
		if !slices.Contains(p.Scopes, s) {
			missing = append(missing, s)
		}
	}
	return missing
}

// accessClaims are the claims of an access token Verify reads, beyond
// the registered ones.
type accessClaims struct {
	Scope    string          `json:"scope"`
	SCP      json.RawMessage `json:"scp"`
	ClientID string          `json:"client_id"`
	AZP      string          `json:"azp"`
}

// Verify checks an access token and returns whom it speaks for. A
// refused token's error is a [*TokenError]; one the introspection
// endpoint could not check wraps [ErrUnavailable].
func (r *Resource) Verify(ctx context.Context, token string) (*Principal, error) {
	now := r.opts.Now()
	key := tokenKey(token)
	if p := r.cache.get(key, now); p != nil {
		return p, nil
	}
	p, err := r.verify(ctx, token, now)
	if err != nil {
		return nil, err
	}
	// Made once, whether the token was a JWT or introspected.
	p.Caller, p.key = callerOf(p, r.opts.Claims), keyOf(p)
	p.info = &sdkauth.TokenInfo{Scopes: p.Scopes, Expiration: p.Expiry, UserID: p.key}
	r.cache.put(key, p, now)
	return p, nil
}

// tokenKey is a token's key in the cache: its SHA-256, so that the cache
// holds no token. The hash reads the string's bytes in place: a token is
// a few hundred bytes, which a conversion would copy on every request.
func tokenKey(token string) [32]byte {
	return sha256.Sum256(unsafe.Slice(unsafe.StringData(token), len(token)))
}

func (r *Resource) verify(ctx context.Context, token string, now time.Time) (*Principal, error) {
	if len(token) > maxToken {
		return nil, invalid("the token is longer than %d bytes", maxToken)
	}
	if r.opts.Introspection != nil && (r.jwksURI == "" || strings.Count(token, ".") != 2) {
		return r.introspect(ctx, token, now)
	}
	if strings.Count(token, ".") != 2 {
		return nil, invalid("the token is not a signed JWT (header.payload.signature)")
	}
	tok, err := jwt.ParseSigned(token, algorithms)
	if err != nil {
		if alg := headerAlg(token); alg != "" && !slices.ContainsFunc(algorithms, func(a jose.SignatureAlgorithm) bool { return string(a) == alg }) {
			return nil, invalid("the token's algorithm %q is not accepted (want RS256, ES256 or EdDSA)", alg)
		}
		return nil, invalid("the token is malformed")
	}
	h := tok.Headers[0]
	keys, err := r.keys.lookup(ctx, h.KeyID, h.Algorithm)
	if err != nil {
		return nil, invalid("%v", err)
	}
	var std jwt.Claims
	var extra accessClaims
	var all map[string]json.RawMessage
	verified := false
	for _, k := range keys {
		if tok.Claims(k.Key, &std, &extra, &all) == nil {
			verified = true
			break
		}
	}
	if !verified {
		return nil, invalid("the token's signature does not verify with the issuer's key")
	}
	if err := r.checkClaims(std.Issuer, std.Audience, std.Expiry, std.NotBefore, now); err != nil {
		return nil, err
	}
	p := &Principal{
		Subject:  std.Subject,
		ClientID: extra.ClientID,
		Scopes:   strings.Fields(extra.Scope),
		Expiry:   std.Expiry.Time(),
		Claims:   all,
	}
	if p.ClientID == "" {
		p.ClientID = extra.AZP
	}
	if len(p.Scopes) == 0 && len(extra.SCP) > 0 {
		// scp: a list (Okta, Entra) or a space-separated string.
		var list []string
		var one string
		if json.Unmarshal(extra.SCP, &list) == nil {
			p.Scopes = list
		} else if json.Unmarshal(extra.SCP, &one) == nil {
			p.Scopes = strings.Fields(one)
		}
	}
	return p, nil
}

// checkClaims judges what a JWT's claims and an introspection answer
// both say: the issuer, the audience, and, with the leeway, the expiry
// (required) and the start of validity.
func (r *Resource) checkClaims(iss string, aud jwt.Audience, exp, nbf *jwt.NumericDate, now time.Time) error {
	switch {
	case iss != r.issuer:
		return invalid("the token is from another issuer (%q, not %q)", iss, r.issuer)
	case !aud.Contains(r.opts.Resource):
		return invalid("the token is for another audience (%q, not %q)", []string(aud), r.opts.Resource)
	case exp == nil:
		return invalid("the token has no expiry (exp)")
	case !now.Before(exp.Time().Add(r.opts.Leeway)):
		return invalid("the token expired at %s", exp.Time().UTC().Format(time.RFC3339))
	case nbf != nil && now.Add(r.opts.Leeway).Before(nbf.Time()):
		return invalid("the token is not valid before %s", nbf.Time().UTC().Format(time.RFC3339))
	}
	return nil
}

// headerAlg returns the alg a compact JWS's header names, or "".
func headerAlg(token string) string {
	head, _, _ := strings.Cut(token, ".")
	data, err := base64.RawURLEncoding.DecodeString(head)
	if err != nil {
		return ""
	}
	var h struct {
		Alg string `json:"alg"`
	}
	if json.Unmarshal(data, &h) != nil {
		return ""
	}
	return h.Alg
}

package mcpauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
)

// MetadataPath is where protected-resource metadata is served (RFC
// 9728): the resource's path is appended to it, and it is also served
// as it is, for clients that look at the root.
const MetadataPath = "/.well-known/oauth-protected-resource"

// CodeUnauthorized is the JSON-RPC error code of a 401 and a 403 body.
const CodeUnauthorized = -32001

// codeUnavailable is the JSON-RPC error code of a 503 for a token the
// authorization server could not check (a server error).
const codeUnavailable = -32000

// ParseAuthorization returns the token of an Authorization header that
// carries a bearer token (RFC 6750: "Bearer" in any case, one or more
// spaces, a b64token). It fails, saying why, for anything else.
func ParseAuthorization(header string) (string, error) {
	scheme, rest, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", errors.New("the Authorization header does not carry a Bearer token")
	}
	token := strings.TrimLeft(rest, " ")
	if strings.TrimRight(token, "=") == "" {
		return "", errors.New("the Authorization header's Bearer token is empty")
	}
	for i := 0; i < len(token); i++ {
		if !b64token(token[i]) || (token[i] == '=' && strings.TrimRight(token[i:], "=") != "") {
			return "", errors.New("the Authorization header's Bearer token has a character a token may not have")
		}
	}
	return token, nil
}

// b64token reports whether c may appear in RFC 6750's b64token.
func b64token(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~+/=", c) >= 0
}

// MetadataURL returns where r's metadata is: the metadata path on the
// resource's origin, followed by its path.
func (r *Resource) MetadataURL() string {
	u, _ := url.Parse(r.opts.Resource)
	return u.Scheme + "://" + u.Host + MetadataPath + strings.TrimSuffix(u.EscapedPath(), "/")
}

// MetadataPaths returns the paths on this server where r's metadata is
// served: after the resource's path, and at the root.
func (r *Resource) MetadataPaths() []string {
	u, _ := url.Parse(r.opts.Resource)
	paths := []string{MetadataPath}
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		paths = append([]string{MetadataPath + p}, paths...)
	}
	return paths
}

// MetadataHandler serves r's protected-resource metadata (RFC 9728).
func (r *Resource) MetadataHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write(r.metadata)
	})
}

type principalKey struct{}

// PrincipalFrom returns the principal Protect verified for a request, or
// nil.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// WithPrincipal returns ctx carrying p, as Protect leaves it.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return &principalContext{Context: ctx, p: p}
}

// WithPrincipalValue is WithPrincipal with val under key too, as
// context.WithValue puts it, in one context: for a handler that makes a
// context of its own for a request [ProtectOptions].ServePrincipal hands
// it.
func WithPrincipalValue(ctx context.Context, p *Principal, key, val any) context.Context {
	if key == nil {
		panic("mcpauth: nil key")
	}
	return &principalContext{Context: ctx, p: p, key: key, val: val}
}

// principalContext carries a principal, and perhaps another value, in one
// allocation.
type principalContext struct {
	context.Context
	p        *Principal
	key, val any
}

func (c *principalContext) Value(key any) any {
	switch {
	case key == (principalKey{}):
		return c.p
	case c.key != nil && key == c.key:
		return c.val
	}
	return c.Context.Value(key)
}

// Protect serves next only requests with a valid bearer token; the others
// get 401 with a challenge. The request next sees has no Authorization
// header; its context carries the [Principal] ([PrincipalFrom]) and the
// MCP SDK's TokenInfo, which binds a session to its principal
// ([Principal.Key]): a request in another principal's session gets 403.
func (r *Resource) Protect(next http.Handler) http.Handler {
	return r.ProtectWith(next, nil)
}

// ProtectOptions configure [Resource.ProtectWith].
type ProtectOptions struct {
	// Unverified, when set, is asked about each request whose token is
	// not already verified (cached) before it is checked: a request with
	// no token, a malformed one, or one not yet seen. It returns true to
	// go on; false when it answered the request itself (429, for a client
	// address over its rate of refusals), and the token is not checked.
	Unverified func(w http.ResponseWriter, req *http.Request) bool
	// Refusing, when set, is asked before a request is answered with 401.
	// It returns true to go on; false when it answered the request itself
	// (429, for a client address over its rate of refusals).
	Refusing func(w http.ResponseWriter, req *http.Request) bool
	// NoTokenInfo leaves the MCP SDK's TokenInfo out of the context of the
	// request next sees, which carries the [Principal] only: next wraps
	// the SDK's handlers in [SDKTokenInfo], so that only the requests the
	// SDK serves pay for it.
	NoTokenInfo bool
	// ServePrincipal, when set, serves the verified requests in next's
	// place (next may be nil), with their principal, which their context
	// does not carry: it puts it there ([WithPrincipal],
	// [WithPrincipalValue]) before anything reads it. A handler that makes
	// a context of its own for a request is spared a second one, and the
	// copy of the request that carries it. NoTokenInfo is implied.
	ServePrincipal func(w http.ResponseWriter, req *http.Request, p *Principal)
}

// ProtectWith is Protect with opts; nil opts are Protect's.
func (r *Resource) ProtectWith(next http.Handler, opts *ProtectOptions) http.Handler {
	var o ProtectOptions
	if opts != nil {
		o = *opts
	}
	// refuse answers 401 with a challenge, unless o.Refusing answers.
	refuse := func(w http.ResponseWriter, req *http.Request, code, desc string) {
		if o.Refusing == nil || o.Refusing(w, req) {
			r.challenge(w, http.StatusUnauthorized, code, desc, r.opts.Scopes)
		}
	}
	if !o.NoTokenInfo && o.ServePrincipal == nil {
		next = r.SDKTokenInfo(next)
	}
	// pass hands a verified request on, without its Authorization header.
	pass := func(w http.ResponseWriter, req *http.Request, p *Principal) {
		delete(req.Header, "Authorization")
		if o.ServePrincipal != nil {
			o.ServePrincipal(w, req, p)
			return
		}
		next.ServeHTTP(w, req.WithContext(WithPrincipal(req.Context(), p)))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		header := req.Header.Get("Authorization")
		// A token verified before: looked up by its hash, not parsed again.
		if token, ok := strings.CutPrefix(header, "Bearer "); ok && len(req.Header["Authorization"]) == 1 {
			if p := r.cache.get(tokenKey(token), r.opts.Now()); p != nil {
				pass(w, req, p)
				return
			}
		}
		if o.Unverified != nil && !o.Unverified(w, req) {
			return
		}
		if header == "" {
			refuse(w, req, "", "no bearer token: this server requires an OAuth access token")
			return
		}
		token, err := ParseAuthorization(header)
		if err != nil || len(req.Header.Values("Authorization")) > 1 {
			if err == nil {
				err = errors.New("more than one Authorization header")
			}
			refuse(w, req, "invalid_request", err.Error())
			return
		}
		p, err := r.Verify(req.Context(), token)
		if errors.Is(err, ErrUnavailable) {
			unavailable(w, err)
			return
		}
		if err != nil {
			refuse(w, req, "invalid_token", err.Error())
			return
		}
		pass(w, req, p)
	})
}

// SDKTokenInfo serves next with the MCP SDK's TokenInfo of the request's
// [Principal] in its context, which binds a session to its principal
// ([Principal.Key]): a request in another principal's session gets 403.
// It is what Protect adds, for a handler behind
// ProtectOptions.NoTokenInfo; a request with no principal gets 401.
func (r *Resource) SDKTokenInfo(next http.Handler) http.Handler {
	// The SDK's middleware puts the TokenInfo in the context, where only
	// it can: its verifier hands over the principal already verified.
	sdk := sdkauth.RequireBearerToken(func(ctx context.Context, _ string, _ *http.Request) (*sdkauth.TokenInfo, error) {
		p := PrincipalFrom(ctx)
		if p == nil {
			return nil, sdkauth.ErrInvalidToken
		}
		return p.TokenInfo(), nil
	}, &sdkauth.RequireBearerTokenOptions{ClockSkew: r.opts.Leeway})
	inner := sdk(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		delete(req.Header, "Authorization")
		next.ServeHTTP(w, req)
	}))
	// The SDK's middleware reads the Authorization header, to give its
	// verifier the token: it gets a short stand-in, since the principal
	// is in the context already.
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		req.Header["Authorization"] = standIn
		inner.ServeHTTP(w, req)
	})
}

// TokenInfo returns what the MCP SDK is told of p, made once.
func (p *Principal) TokenInfo() *sdkauth.TokenInfo {
	if p.info == nil {
		return &sdkauth.TokenInfo{Scopes: p.Scopes, Expiration: p.Expiry, UserID: p.Key()}
	}
	return p.info
}

// verifiedStandIn is the Authorization header the SDK's middleware reads
// for a request whose token Protect verified.
const verifiedStandIn = "Bearer verified"

// standIn is the stand-in header's value, which the SDK's middleware only
// reads and SDKTokenInfo removes before its handler sees the request.
var standIn = []string{verifiedStandIn}

// Forbid answers a request whose token lacks scopes with 403
// insufficient_scope, naming every scope of required (RFC 6750 §3.1), and
// a JSON-RPC error answering id.
func (r *Resource) Forbid(w http.ResponseWriter, id json.RawMessage, what string, required []string) {
	r.challengeID(w, http.StatusForbidden, id, "insufficient_scope",
		fmt.Sprintf("insufficient scope: %s needs the scopes %s", what, strings.Join(required, " ")), required)
}

// unavailable answers a request whose token could not be checked with
// 503 and a JSON-RPC error: the token may be good, so no challenge.
func unavailable(w http.ResponseWriter, err error) {
	w.Header().Set("Retry-After", "5")
	writeError(w, http.StatusServiceUnavailable, nil, codeUnavailable, err.Error())
}

// challenge answers with status, a Bearer challenge and a JSON-RPC error.
func (r *Resource) challenge(w http.ResponseWriter, status int, code, desc string, scopes []string) {
	r.challengeID(w, status, nil, code, desc, scopes)
}

func (r *Resource) challengeID(w http.ResponseWriter, status int, id json.RawMessage, code, desc string, scopes []string) {
	params := []string{"resource_metadata=" + quote(r.MetadataURL())}
	if len(scopes) > 0 {
		params = append(params, "scope="+quote(strings.Join(scopes, " ")))
	}
	if code != "" {
		params = append(params, "error="+quote(code), "error_description="+quote(desc))
	}
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
	writeError(w, status, id, CodeUnauthorized, desc)
}

// writeError answers with status and a JSON-RPC error answering id.
func writeError(w http.ResponseWriter, status int, id json.RawMessage, code int, desc string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	body, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   any             `json:"error"`
	}{"2.0", id, struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, desc}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

// quote makes s an RFC 9110 quoted-string: a backslash before each quote
// and backslash, and no control character.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

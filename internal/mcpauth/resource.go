package mcpauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Defaults of [Options].
const (
	DefaultLeeway          = 30 * time.Second
	DefaultRefreshInterval = 30 * time.Second
	DefaultCacheSize       = 10000
)

// maxDocument bounds a metadata document or key set read from the
// authorization server.
const maxDocument = 1 << 20

// Options configure [New].
type Options struct {
	// Issuer is the authorization server's issuer URL, as its metadata and
	// its tokens name it. Required.
	Issuer string
	// Resource is this server's canonical URL (https://host/mcp): a token's
	// audience must name it, and its metadata is served for it. Required.
	Resource string
	// Scopes are the scopes this resource knows, advertised as
	// scopes_supported. Default: none advertised.
	Scopes []string
	// Claims name the token claims passed on to tool handlers
	// (Principal.Caller, sdk.Caller.Claims), beyond the subject, client
	// id and scopes they always read: "email", "groups". Default: none.
	Claims []string
	// Client fetches the metadata and the keys. Default: a client with a
	// 10 second timeout.
	Client *http.Client
	// Leeway is how far the clocks of the issuer and this server may
	// differ when a token's exp and nbf are judged. Default DefaultLeeway.
	Leeway time.Duration
	// RefreshInterval is the least time between two fetches of the key set
	// for an unknown kid. Default DefaultRefreshInterval.
	RefreshInterval time.Duration
	// CacheSize bounds how many verified tokens are remembered. Default
	// DefaultCacheSize.
	CacheSize int
	// Now tells the time. Default time.Now.
	Now func() time.Time
	// Introspection, when set, accepts opaque access tokens too: a token
	// that is not a JWT, or every token when the issuer publishes no
	// keys, is checked by the issuer's introspection endpoint (RFC 7662),
	// with the same rules as a JWT's claims. Default: JWTs only.
	Introspection *Introspection
}

// Resource verifies access tokens for one protected resource, and answers
// for it over HTTP. Create it with [New]; it is safe for concurrent use.
type Resource struct {
	opts     Options
	issuer   string
	jwksURI  string
	metadata []byte // the protected-resource metadata document
	keys     keySet
	cache    tokenCache
}

// New reads the issuer's metadata and keys and returns the resource that
// accepts its tokens.
func New(ctx context.Context, opts *Options) (*Resource, error) {
	if opts == nil {
		return nil, errors.New("auth: no options")
	}
	o := *opts
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if o.Leeway <= 0 {
		o.Leeway = DefaultLeeway
	}
	if o.RefreshInterval <= 0 {
		o.RefreshInterval = DefaultRefreshInterval
	}
	if o.CacheSize <= 0 {
		o.CacheSize = DefaultCacheSize
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if err := checkURL(o.Issuer); err != nil {
		return nil, fmt.Errorf("auth: issuer: %w", err)
	}
	if err := checkURL(o.Resource); err != nil {
		return nil, fmt.Errorf("auth: resource: %w", err)
	}
	if u, _ := url.Parse(o.Resource); u.Fragment != "" || u.RawQuery != "" {
		return nil, fmt.Errorf("auth: resource %s: a resource URL has no query or fragment (RFC 8707)", o.Resource)
	}
	if err := checkClaims(o.Claims); err != nil {
		return nil, fmt.Errorf("auth: claims to pass on: %w", err)
	}
	o.Claims = slices.Clone(o.Claims)
	r := &Resource{opts: o, issuer: o.Issuer}
	r.keys.init(&r.opts, r.getJSON)
	r.cache.max = o.CacheSize
	jwksURI, err := r.discover(ctx)
	if err != nil {
		return nil, fmt.Errorf("auth: issuer %s: %w", o.Issuer, err)
	}
	r.jwksURI = jwksURI
	r.keys.uri = jwksURI
	if jwksURI != "" {
		if err := r.keys.refresh(ctx); err != nil {
			return nil, fmt.Errorf("auth: issuer %s: %w", o.Issuer, err)
		}
	}
	if o.Introspection != nil {
		if err := r.checkIntrospection(ctx); err != nil {
			return nil, fmt.Errorf("auth: %w", err)
		}
	}
	scopes := slices.Clone(o.Scopes)
	slices.Sort(scopes)
	r.metadata, _ = json.Marshal(struct {
		Resource               string   `json:"resource"`
		AuthorizationServers   []string `json:"authorization_servers"`
		ScopesSupported        []string `json:"scopes_supported,omitempty"`
		BearerMethodsSupported []string `json:"bearer_methods_supported"`
	}{o.Resource, []string{o.Issuer}, slices.Compact(scopes), []string{"header"}})
	return r, nil
}

// Issuer returns the issuer whose tokens r accepts.
func (r *Resource) Issuer() string { return r.issuer }

// ResourceURL returns r's canonical URL, the audience of its tokens.
func (r *Resource) ResourceURL() string { return r.opts.Resource }

// checkURL says what keeps s from being a URL an OAuth server may use:
// https, or http to a loopback host.
func checkURL(s string) error {
	if s == "" {
		return errors.New("no URL")
	}
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	switch {
	case u.Host == "":
		return fmt.Errorf("%s: not an absolute URL", s)
	case u.Scheme == "https":
	case u.Scheme == "http" && loopbackHost(u.Hostname()):
	default:
		return fmt.Errorf("%s: want an https URL (http only on a loopback host)", s)
	}
	return nil
}

// loopbackHost reports whether host names the loopback interface.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// discoveryURLs are where an issuer's metadata may be: RFC 8414's path
// and OpenID Connect's, the well-known part inserted before the issuer's
// path, then OpenID Connect's appended to it.
func discoveryURLs(issuer string) []string {
	u, _ := url.Parse(issuer)
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	origin := u.Scheme + "://" + u.Host
	urls := []string{
		origin + "/.well-known/oauth-authorization-server" + path,
		origin + "/.well-known/openid-configuration" + path,
	}
	if path != "" {
		urls = append(urls, origin+path+"/.well-known/openid-configuration")
	}
	return urls
}

// discover reads the issuer's metadata and returns its jwks_uri: "" for
// an issuer without one whose tokens are introspected.
func (r *Resource) discover(ctx context.Context) (string, error) {
	var tried []string
	for _, u := range discoveryURLs(r.issuer) {
		var meta struct {
			Issuer  string `json:"issuer"`
			JWKSURI string `json:"jwks_uri"`
		}
		status, err := r.getJSON(ctx, u, &meta)
		if status == http.StatusNotFound {
			tried = append(tried, u)
			continue
		}
		if err != nil {
			return "", fmt.Errorf("metadata %s: %w", u, err)
		}
		if meta.Issuer != r.issuer {
			return "", fmt.Errorf("metadata %s names the issuer %q, not %q", u, meta.Issuer, r.issuer)
		}
		if meta.JWKSURI == "" && r.opts.Introspection != nil {
			return "", nil
		}
		if err := checkURL(meta.JWKSURI); err != nil {
			return "", fmt.Errorf("metadata %s: jwks_uri: %w", u, err)
		}
		return meta.JWKSURI, nil
	}
	return "", fmt.Errorf("no authorization server metadata at %s", strings.Join(tried, " or "))
}

// getJSON fetches u and decodes its JSON into v. It returns the HTTP
// status, 0 when there was no answer.
func (r *Resource) getJSON(ctx context.Context, u string, v any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := r.opts.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, fmt.Errorf("%s", resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	if err != nil {
		return resp.StatusCode, err
	}
	if len(data) > maxDocument {
		return resp.StatusCode, fmt.Errorf("the document exceeds %d bytes", maxDocument)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return resp.StatusCode, fmt.Errorf("not a JSON object: %v", err)
	}
	return resp.StatusCode, nil
}

// tokenCache remembers verified tokens, by their SHA-256, until they
// expire.
type tokenCache struct {
	mu  sync.Mutex
	max int
	m   map[[32]byte]*Principal
}

func (c *tokenCache) get(key [32]byte, now time.Time) *Principal {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.m[key]
	if p != nil && !now.Before(p.Expiry) {
		delete(c.m, key)
		return nil
	}
	return p
}

func (c *tokenCache) put(key [32]byte, p *Principal, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[[32]byte]*Principal{}
	}
	if len(c.m) >= c.max {
		for k, q := range c.m {
			if !now.Before(q.Expiry) {
				delete(c.m, k)
			}
		}
		// Still full: forget any, the map's order is random.
		for k := range c.m {
			if len(c.m) < c.max {
				break
			}
			delete(c.m, k)
		}
	}
	c.m[key] = p
}

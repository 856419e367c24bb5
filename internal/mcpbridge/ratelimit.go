package mcpbridge

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpwire"
	"github.com/modkit/modkit/internal/ratelimit"
)

// codeRateLimited is the JSON-RPC error code of a request over its
// caller's rate (a server error, in the range JSON-RPC leaves to
// implementations).
const codeRateLimited = -32000

// callerKey names the caller of req for the rate limit: the access
// token's subject, else the client's IP address.
func callerKey(req *http.Request) string {
	if p := mcpauth.PrincipalFrom(req.Context()); p != nil {
		return "sub:" + p.Subject
	}
	return "addr:" + clientAddr(req)
}

// clientAddr is the IP address req came from.
func clientAddr(req *http.Request) string {
	host, _, err := net.SplitHostPort(req.RemoteAddr)
	if err != nil {
		return req.RemoteAddr
	}
	return host
}

// tooManyRequests answers a request over its caller's rate with 429.
func tooManyRequests(w http.ResponseWriter, id json.RawMessage, retry time.Duration) {
	w.Header().Set("Retry-After", ratelimit.RetryAfter(retry))
	mcpwire.WriteError(w, http.StatusTooManyRequests, id, mcpwire.NewError(codeRateLimited,
		fmt.Sprintf("too many requests: over this caller's rate limit; retry in %v", retry.Round(time.Millisecond))))
}

// refusals limits the 401s each client address gets (mcpauth's
// ProtectOptions): each 401 takes a token from the address's bucket in
// the rate limiter, shared by replicas; an address over the rate gets 429
// instead, and until its bucket refills its requests whose token is not
// already verified get 429 before the token is checked, so that a client
// cannot make the server check tokens faster than the rate. A token
// verified before, and a good token's first request, take nothing from
// the address's bucket.
type refusals struct {
	limiter ratelimit.Limiter
	mu      sync.Mutex
	blocked map[string]time.Time // address -> until when
}

// maxBlocked bounds the addresses refusals remembers as blocked.
const maxBlocked = 10000

// protectOptions are the hooks of refusals for mcpauth's ProtectWith.
func (rf *refusals) protectOptions() *mcpauth.ProtectOptions {
	return &mcpauth.ProtectOptions{Unverified: rf.unverified, Refusing: rf.refusing}
}

// unverified answers 429 to a request of a blocked address.
func (rf *refusals) unverified(w http.ResponseWriter, req *http.Request) bool {
	addr := clientAddr(req)
	rf.mu.Lock()
	until, ok := rf.blocked[addr]
	now := time.Now()
	if ok && !now.Before(until) {
		delete(rf.blocked, addr)
		ok = false
	}
	rf.mu.Unlock()
	if !ok {
		return true
	}
	refuseOverRate(w, until.Sub(now))
	return false
}

// refusing takes a token from the address's bucket for a 401; over the
// rate, it answers 429 and blocks the address until the bucket refills.
func (rf *refusals) refusing(w http.ResponseWriter, req *http.Request) bool {
	addr := clientAddr(req)
	ok, retry := rf.limiter.Allow(req.Context(), "unauthorized:"+addr)
	if ok {
		return true
	}
	now := time.Now()
	rf.mu.Lock()
	if len(rf.blocked) >= maxBlocked {
		for a, until := range rf.blocked {
			if !now.Before(until) || len(rf.blocked) >= maxBlocked {
				delete(rf.blocked, a)
			}
		}
	}
	rf.blocked[addr] = now.Add(retry)
	rf.mu.Unlock()
	refuseOverRate(w, retry)
	return false
}

// refuseOverRate answers 429 before the authorization check, marked for
// auditUnauthorized.
func refuseOverRate(w http.ResponseWriter, retry time.Duration) {
	if sw, ok := w.(*statusWriter); ok {
		sw.beforeAuth = true
	}
	tooManyRequests(w, nil, retry)
}

// overRate answers a request over its caller's rate with 429, and
// reports whether it did. body is a posted request's body, nil for
// another method.
func (h *HTTPHandler) overRate(w http.ResponseWriter, req *http.Request, body []byte, start time.Time) bool {
	if h.opts.RateLimit == nil {
		return false
	}
	ok, retry := h.opts.RateLimit.Allow(req.Context(), callerKey(req))
	if ok {
		return false
	}
	var m httpMessage
	if body != nil {
		m, _, _ = checkBody(body)
	}
	tooManyRequests(w, m.ID, retry)
	if body != nil {
		h.auditRefused(req, &m, body, http.StatusTooManyRequests, start)
	}
	return true
}

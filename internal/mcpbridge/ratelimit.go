package mcpbridge

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modkit/modkit/internal/mcpauth"
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
	writeRPCError(w, http.StatusTooManyRequests, id, jsonrpcError{codeRateLimited,
		fmt.Sprintf("too many requests: over this caller's rate limit; retry in %v", retry.Round(time.Millisecond))})
}

// limitUnverified is the rate limit of requests whose token the
// authorization check has not verified before (mcpauth's
// ProtectOptions.Unverified): each takes a token from its client
// address's bucket before its token is verified or refused, so that a
// client cannot make the server check tokens, or answer 401, faster than
// the rate. It reports whether the request may go on.
func (h *HTTPHandler) limitUnverified(w http.ResponseWriter, req *http.Request) bool {
	ok, retry := h.opts.RateLimit.Allow(req.Context(), "unverified:"+clientAddr(req))
	if ok {
		return true
	}
	if sw, ok := w.(*statusWriter); ok {
		sw.beforeAuth = true // auditUnauthorized records it
	}
	tooManyRequests(w, nil, retry)
	return false
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

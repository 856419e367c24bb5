package mcpbridge

import (
	"fmt"
	"net"
	"net/http"
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
	host, _, err := net.SplitHostPort(req.RemoteAddr)
	if err != nil {
		host = req.RemoteAddr
	}
	return "addr:" + host
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
	w.Header().Set("Retry-After", ratelimit.RetryAfter(retry))
	mcpwire.WriteError(w, http.StatusTooManyRequests, m.ID, mcpwire.NewError(codeRateLimited,
		fmt.Sprintf("too many requests: over this caller's rate limit; retry in %v", retry.Round(time.Millisecond))))
	if body != nil {
		h.auditRefused(req, &m, body, http.StatusTooManyRequests, start)
	}
	return true
}

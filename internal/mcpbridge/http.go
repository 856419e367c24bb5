package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is where modhost serves MCP over streamable HTTP.
const HTTPPath = "/mcp"

// Defaults of [HTTPOptions].
const (
	DefaultSessionTimeout = 30 * time.Minute
	DefaultMaxSessions    = 256
)

// retryAfter is what a client refused for the session cap is told to wait,
// in seconds.
const retryAfter = 10

// HTTPOptions configure [NewHTTPHandler]. A nil *HTTPOptions means defaults.
type HTTPOptions struct {
	// SessionTimeout closes a session that got no request for this long; a
	// call in flight keeps its session open. Default: 30 minutes.
	SessionTimeout time.Duration
	// MaxSessions caps the live sessions: a client that asks for one more
	// gets 503 Service Unavailable with Retry-After. Default: 256.
	MaxSessions int
	// Logger receives the SDK's logs. Default: none.
	Logger *slog.Logger
}

// HTTPHandler serves an MCP server over streamable HTTP, one session per
// client. Create it with [NewHTTPHandler].
type HTTPHandler struct {
	srv      *mcp.Server
	handler  http.Handler // serve behind cross-origin protection
	sdk      http.Handler
	opts     HTTPOptions
	calls    context.Context
	abort    context.CancelFunc
	newMu    sync.Mutex // serializes session creation, for the cap
	inflight sync.Map   // cancelKey -> *atomic.Bool: calls in flight, and whether the client cancelled them
}

// NewHTTPHandler serves srv over streamable HTTP, with one MCP session per
// client. It adds to the SDK's handler:
//
//   - two protections of a server on a loopback address against web pages:
//     a request that reached a loopback address with a Host header naming
//     another host is refused with 403 (DNS rebinding protection, as the SDK
//     does, but before anything else is read), and so is a browser's
//     cross-origin request (net/http's CrossOriginProtection);
//   - idle sessions expire and live sessions are capped ([HTTPOptions]);
//   - a request for a method the server does not have gets a JSON-RPC
//     -32601 error, and a message other than initialize without an
//     Mcp-Session-Id header gets 400 with a JSON-RPC -32600 error;
//   - a call the client cancelled with notifications/cancelled gets no
//     response: its event stream ends without one (the SDK alone answers
//     it, go-sdk#1235).
func NewHTTPHandler(srv *mcp.Server, opts *HTTPOptions) *HTTPHandler {
	var o HTTPOptions
	if opts != nil {
		o = *opts
	}
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	calls, abort := context.WithCancel(context.Background())
	h := &HTTPHandler{srv: srv, opts: o, calls: calls, abort: abort}
	h.sdk = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Logger: o.Logger, SessionTimeout: o.SessionTimeout})
	h.handler = http.NewCrossOriginProtection().Handler(http.HandlerFunc(h.serve))
	return h
}

// Close cancels every call in flight and closes every session. Requests
// that come after are still served.
func (h *HTTPHandler) Close() {
	h.abort()
	for ss := range h.srv.Sessions() {
		ss.Close()
	}
}

// cancelKey names a call of a session.
type cancelKey struct{ session, id string }

// httpMessage is what the handler reads of a posted message.
type httpMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
		Meta      map[string]any  `json:"_meta"`
	} `json:"params"`
}

// clientRequests are the requests a client may send an MCP server: any
// other method is unknown.
var clientRequests = map[string]bool{
	"initialize": true, "ping": true,
	"tools/list": true, "tools/call": true,
	"resources/list": true, "resources/read": true, "resources/templates/list": true,
	"resources/subscribe": true, "resources/unsubscribe": true,
	"prompts/list": true, "prompts/get": true,
	"logging/setLevel": true, "completion/complete": true,
	"server/discover": true, "subscriptions/listen": true,
}

// sessionless is the first protocol version without sessions, which the SDK
// answers itself.
const sessionless = "2026-07-28"

// ServeHTTP implements http.Handler.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	h.handler.ServeHTTP(w, req)
}

func (h *HTTPHandler) serve(w http.ResponseWriter, req *http.Request) {
	if rebound(req) {
		http.Error(w, fmt.Sprintf("Forbidden: invalid Host header %q", req.Host), http.StatusForbidden)
		return
	}
	req = req.WithContext(withCallsContext(req.Context(), h.calls))
	if req.Method != http.MethodPost || req.Body == nil {
		h.sdk.ServeHTTP(w, req)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, mcp.DefaultMaxRequestBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "failed to read body", http.StatusBadRequest)
		return
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	var m httpMessage
	if json.Unmarshal(body, &m) != nil || m.Method == "" {
		// Batches, responses and malformed bodies: the SDK's to judge.
		h.sdk.ServeHTTP(w, req)
		return
	}
	session := req.Header.Get("Mcp-Session-Id")
	id := idKey(m.ID)
	newProtocol := req.Header.Get("Mcp-Protocol-Version") >= sessionless || m.Params.Meta["io.modelcontextprotocol/protocolVersion"] != nil
	switch {
	case id != "" && !clientRequests[m.Method]:
		writeRPCError(w, http.StatusOK, m.ID, jsonrpcError{-32601, "method not found: " + m.Method})
		return
	case newProtocol:
	case session == "" && m.Method != "initialize":
		writeRPCError(w, http.StatusBadRequest, m.ID, jsonrpcError{codeInvalidRequest,
			"invalid request: no Mcp-Session-Id header; initialize a session first"})
		return
	case session == "":
		h.newMu.Lock()
		defer h.newMu.Unlock()
		if n := h.liveSessions(); n >= h.opts.MaxSessions {
			w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
			http.Error(w, fmt.Sprintf("too many sessions: %d are open, the limit is %d", n, h.opts.MaxSessions), http.StatusServiceUnavailable)
			return
		}
	case m.Method == "notifications/cancelled":
		if c, ok := h.inflight.Load(cancelKey{session, idKey(m.Params.RequestID)}); ok {
			c.(*atomic.Bool).Store(true)
		}
	case m.Method == "tools/call" && id != "":
		key := cancelKey{session, id}
		cancelled := new(atomic.Bool)
		h.inflight.Store(key, cancelled)
		defer h.inflight.Delete(key)
		w = &cancelFilter{ResponseWriter: w, id: id, cancelled: cancelled}
	}
	h.sdk.ServeHTTP(w, req)
}

// rebound reports a request that reached a loopback address with a Host
// header naming another host: a web page's, through DNS rebinding.
func rebound(req *http.Request) bool {
	local, ok := req.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return ok && local != nil && isLoopback(local.String()) && !isLoopback(req.Host)
}

// isLoopback reports whether a host or host:port names the loopback
// interface.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// liveSessions counts the server's sessions.
func (h *HTTPHandler) liveSessions() int {
	n := 0
	for range h.srv.Sessions() {
		n++
	}
	return n
}

type jsonrpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// writeRPCError answers with a JSON-RPC error response.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, e jsonrpcError) {
	if idKey(id) == "" {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpcError    `json:"error"`
	}{"2.0", id, e})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(data)
}

// cancelFilter drops the event that answers a call once the client
// cancelled it. The SDK writes one server-sent event per Write.
type cancelFilter struct {
	http.ResponseWriter
	id        string
	cancelled *atomic.Bool
}

func (f *cancelFilter) Write(b []byte) (int, error) {
	if f.cancelled.Load() {
		if i := bytes.Index(b, []byte("data: ")); i >= 0 {
			if id, ok := responseID(b[i+len("data: "):]); ok && id == f.id {
				return len(b), nil
			}
		}
	}
	return f.ResponseWriter.Write(b)
}

// Flush and Unwrap let the SDK flush each event.
func (f *cancelFilter) Flush() {
	if fl, ok := f.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

func (f *cancelFilter) Unwrap() http.ResponseWriter { return f.ResponseWriter }

// ListenAddr returns the address to listen on for addr, a host:port or a
// bare :port: a missing host means the loopback address 127.0.0.1, never
// every interface.
func ListenAddr(addr string) string {
	h, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if h == "" {
		h = "127.0.0.1"
	}
	return net.JoinHostPort(h, port)
}

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
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/audit"
	"github.com/modkit/modkit/internal/jsondepth"
	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpwire"
	"github.com/modkit/modkit/internal/ratelimit"
)

// HTTPPath is where modhost serves MCP over streamable HTTP.
const HTTPPath = "/mcp"

// Defaults of [HTTPOptions].
const (
	DefaultSessionTimeout = 24 * time.Hour
	DefaultMaxSessions    = 256
)

// retryAfter is what a client refused for the session cap is told to wait,
// in seconds.
const retryAfter = 10

// HTTPOptions configure [Server.NewHTTPHandler]. A nil *HTTPOptions means defaults.
type HTTPOptions struct {
	// SessionTimeout closes a session that has had no request in flight and
	// no event stream open for this long: a session whose client holds its
	// GET event stream open never expires. Sessions are those of protocol
	// revisions up to 2025-11-25; 2026-07-28 has none. Default: 24 hours.
	SessionTimeout time.Duration
	// MaxSessions caps the live sessions: a client that asks for one more
	// gets 503 Service Unavailable with Retry-After. Default: 256.
	MaxSessions int
	// Logger receives the SDK's logs. Default: none.
	Logger *slog.Logger
	// Auth, when set, makes the handler an OAuth resource server: a
	// request needs a valid access token for Auth's resource (401
	// otherwise), lists show what its scopes allow, and a call of a tool
	// that needs a scope the token lacks gets 403. Default: no
	// authorization.
	Auth *mcpauth.Resource
	// RateLimit, when set, limits each caller's requests: a request over
	// its rate gets 429 Too Many Requests with Retry-After and a JSON-RPC
	// error. A caller is the access token's subject with Auth, else the
	// client's IP address. With Auth, each 401 also takes a token from
	// its client address's bucket: over the rate, the address gets 429
	// instead, and its requests whose token is not already verified are
	// refused before the token is checked until the bucket refills.
	// Default: no limit.
	RateLimit ratelimit.Limiter
}

// HTTPHandler serves an MCP server over streamable HTTP: clients of
// protocol revisions up to 2025-11-25 in sessions, clients of 2026-07-28
// statelessly, on one URL. Create it with [Server.NewHTTPHandler].
type HTTPHandler struct {
	srv       *mcp.Server
	handler   http.Handler  // serve behind cross-origin protection
	sessions  http.Handler  // the SDK's handler with sessions
	stateless http.Handler  // the SDK's stateless handler
	direct    *directCalls  // the calls served without the SDK's handler
	live      *sessionCalls // the sessions whose calls the direct path may serve
	running   sync.Map      // cancelKey -> *runningCall: the direct path's session calls in flight
	events    mcp.EventStore
	opts      HTTPOptions
	clock     *sessionClock
	calls     context.Context
	abort     context.CancelFunc
	newMu     sync.Mutex // serializes session creation, for the cap
	inflight  sync.Map   // cancelKey -> *atomic.Bool: calls in flight, and whether the client cancelled them
	tasks     *taskRunner
	posts     inflight // posted requests in flight, for Drain
	versions  []string // the protocol revisions served, newest first

	// jsonHold is how long a session direct call may run before its event
	// stream starts (heldFlush when zero; below zero, at once); one answered
	// before gets its answer as a JSON response instead.
	jsonHold time.Duration

	// bridge says what each tool and prompt needs (its generation's
	// scopes), for HTTPOptions.Auth.
	bridge *bridge
	// audit is the bridge's Options.Audit.
	audit *audit.Log
}

// NewHTTPHandler serves the server over streamable HTTP. Each request is routed by
// the protocol revision it speaks: one that carries its protocol version
// (the MCP-Protocol-Version header naming 2026-07-28 or later, or the
// version in the request's _meta) or asks server/discover is served
// statelessly, as 2026-07-28 has it; any other request belongs to a session
// of an earlier revision, opened by initialize and named by the
// Mcp-Session-Id header, where the server may send requests of its own.
// It adds to the SDK's handlers:
//
//   - two protections of a server on a loopback address against web pages:
//     a request that reached a loopback address with a Host header naming
//     another host is refused with 403 (DNS rebinding protection, as the SDK
//     does, but before anything else is read), and so is a browser's
//     cross-origin request (net/http's CrossOriginProtection);
//   - a body that is not JSON gets 400 with a JSON-RPC -32700 parse error,
//     and one that is not a JSON-RPC message (or whose id is longer than
//     100 bytes) a -32600 invalid request;
//   - every refusal, of this handler or of the SDK's, is a JSON-RPC error
//     (a body over 4 MiB gets 413 with one), and an error quotes at most
//     100 bytes of any value the client sent;
//   - an MCP-Protocol-Version header naming a revision the server does not
//     speak gets 400 with a JSON-RPC -32022 error whose data lists the
//     supported revisions;
//   - sessions expire when idle with no event stream open, and live
//     sessions are capped ([HTTPOptions]);
//   - in a session, a request for a method the server does not have gets a
//     JSON-RPC -32601 error, and a message other than initialize without an
//     Mcp-Session-Id header gets 400 with a JSON-RPC -32600 error;
//   - a call the client cancelled with notifications/cancelled gets no
//     response: its event stream ends without one (the SDK alone answers
//     it, go-sdk#1235).
//   - with [HTTPOptions].Auth, a request needs an access token (401
//     otherwise), lists hide the tools, prompts, resources and templates
//     its scopes do not cover, and a call, get or read of one gets 403
//     insufficient_scope; the metadata the 401
//     names is the embedder's to serve (mcpauth's MetadataHandler);
//   - in a session of 2025-11-25, a POST's event stream starts with a
//     priming event that carries a retry field, and a client whose stream
//     ended before its answer resumes it with GET and Last-Event-ID
//     (httpstream.go).
//   - a plain stateless tools/call (2026-07-28; no progress, logs or
//     answers, no header-mirrored arguments) is served without the SDK's
//     stateless handler, which builds a session per request: same
//     answer, as one JSON response.
func (s *Server) NewHTTPHandler(opts *HTTPOptions) *HTTPHandler {
	srv := s.mcp
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
	h := &HTTPHandler{srv: srv, opts: o, calls: calls, abort: abort, direct: s.direct, versions: mcp.SupportedProtocolVersions(),
		tasks: s.tasks, bridge: s.bridge, audit: s.bridge.opts.Audit}
	h.clock = newSessionClock(o.SessionTimeout, h.closeSession)
	get := func(*http.Request) *mcp.Server { return srv }
	// The SDK's own session timeout counts only POST requests, so a client
	// idle with its event stream open would lose its session: the clock
	// counts both.
	// The event store makes a session's event streams resumable
	// (httpstream.go).
	h.events = cancelledUnstored{mcp.NewMemoryEventStore(nil), &h.inflight}
	h.sessions = withSSERetry(mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		Logger: o.Logger, EventStore: h.events}))
	if h.direct != nil {
		h.live = newSessionCalls()
	}
	h.stateless = mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Logger: o.Logger, Stateless: true})
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mcpwire.WriteError(w, http.StatusForbidden, nil, mcpwire.NewError(mcpwire.CodeInvalidRequest, "forbidden: a browser's cross-origin request"))
	}))
	var serve http.Handler = http.HandlerFunc(h.serve)
	if o.Auth != nil {
		// Only the requests the SDK serves need its TokenInfo: the direct
		// path takes the principal's from the context.
		h.sessions, h.stateless = o.Auth.SDKTokenInfo(h.sessions), o.Auth.SDKTokenInfo(h.stateless)
		protect := &mcpauth.ProtectOptions{}
		if o.RateLimit != nil {
			protect = (&refusals{limiter: o.RateLimit, blocked: map[string]time.Time{}}).protectOptions()
		}
		// The direct path takes the principal into its calls context: no
		// context and no copy of the request of its own.
		protect.ServePrincipal = h.servePrincipal
		serve = o.Auth.ProtectWith(nil, protect)
		if h.audit != nil {
			serve = h.auditUnauthorized(serve)
		}
	}
	h.handler = cop.Handler(serve)
	return h
}

// Close cancels every call in flight and closes every session. Requests
// that come after are still served.
func (h *HTTPHandler) Close() {
	h.abort()
	h.tasks.Close()
	h.clock.stop()
	if h.live != nil {
		h.live.closingAll()
	}
	for ss := range h.srv.Sessions() {
		ss.Close()
	}
}

// closeSession closes the session named id, if it is still open.
func (h *HTTPHandler) closeSession(id string) {
	if h.live != nil {
		h.live.closing(id)
	}
	for ss := range h.srv.Sessions() {
		if ss.ID() == id {
			ss.Close()
		}
	}
}

// cancelKey names a call of a session.
type cancelKey struct{ session, id string }

// httpMessage is what the handler reads of a posted message.
type httpMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  struct {
		RequestID json.RawMessage            `json:"requestId"`
		Meta      map[string]json.RawMessage `json:"_meta"`
	} `json:"params"`
	// params is the params member as written, and plain tells that the
	// message has the members of a request, each once, and no other: both
	// are set only by readMessage.
	params json.RawMessage
	plain  bool
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

// sessionless is the first protocol version without sessions.
const sessionless = "2026-07-28"

// Header names of the streamable HTTP transport.
const (
	sessionHeader  = "Mcp-Session-Id"
	protocolHeader = "Mcp-Protocol-Version"
)

// ServeHTTP implements http.Handler.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	h.handler.ServeHTTP(w, req)
}

func (h *HTTPHandler) serve(w http.ResponseWriter, req *http.Request) {
	h.servePrincipal(w, req, nil)
}

// servePrincipal serves req, whose context does not carry p, its
// principal behind HTTPOptions.Auth (mcpauth's ServePrincipal), when p is
// set. A direct call takes p into its calls context; any other request
// gets a copy of req that carries it before anything reads it.
func (h *HTTPHandler) servePrincipal(w http.ResponseWriter, req *http.Request, p *mcpauth.Principal) {
	if p != nil && (req.Method != http.MethodPost || req.Body == nil || h.audit != nil || h.opts.RateLimit != nil) {
		req, p = withPrincipal(req, p), nil
	}
	if rebound(req) {
		mcpwire.WriteError(w, http.StatusForbidden, nil, mcpwire.NewError(mcpwire.CodeInvalidRequest, "forbidden: invalid Host header "+echo(req.Host)))
		return
	}
	start := time.Now()
	if h.audit != nil {
		req = req.WithContext(withHTTPCaller(req.Context(), req.RemoteAddr))
	}
	session := req.Header.Get(sessionHeader)
	version := req.Header.Get(protocolHeader)
	newHeader := version >= sessionless
	if req.Method != http.MethodPost || req.Body == nil {
		if !h.knownVersion(w, nil, version) || h.overRate(w, req, nil, start) {
			return
		}
		// GET opens a session's event stream, DELETE ends a session: with
		// no session named, there is none (the stateless handler answers
		// 405 with Allow: POST).
		req = h.withCalls(req)
		w = &sdkWriter{ResponseWriter: w}
		if newHeader || session == "" {
			h.stateless.ServeHTTP(w, req)
			return
		}
		release := h.clock.hold(session)
		defer release()
		if req.Method == http.MethodGet && h.resumeDirect(w, req, session) {
			return
		}
		if req.Method == http.MethodDelete && h.live != nil && h.live.get(session, req) != nil {
			// The SDK's session waits for its calls to end as it closes.
			h.live.closing(session)
		}
		h.sessions.ServeHTTP(w, req)
		if req.Method == http.MethodDelete {
			h.clock.forget(session)
		}
		return
	}
	if !h.posts.enter() {
		refuseDraining(w)
		return
	}
	// A session's POST may end before its call (serveSessionDirect).
	var post *postIn
	if session != "" {
		post = &postIn{posts: &h.posts}
		defer post.leave()
	} else {
		defer h.posts.leave()
	}
	body, err := readBody(w, req)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			mcpwire.WriteError(w, http.StatusRequestEntityTooLarge, nil, mcpwire.NewError(mcpwire.CodeInvalidRequest, fmt.Sprintf("invalid request: the body exceeds %d bytes", mbe.Limit)))
			return
		}
		mcpwire.WriteError(w, http.StatusBadRequest, nil, mcpwire.NewError(mcpwire.CodeInvalidRequest, "invalid request: the body could not be read"))
		return
	}
	if h.overRate(w, req, body, start) {
		return
	}
	m, code, msg := checkBody(body)
	if code != 0 {
		mcpwire.WriteError(w, http.StatusBadRequest, nil, mcpwire.NewError(int64(code), msg))
		return
	}
	if !h.knownVersion(w, m.ID, version) {
		return
	}
	tagRequestID(req.Header, m.ID)
	if h.opts.Auth != nil {
		if refused := h.refuseOutOfScope(w, req, p, &m, body); refused != nil {
			h.auditRefused(req, refused, body, http.StatusForbidden, start)
			return
		}
	}
	_, metaVersion := m.Params.Meta["io.modelcontextprotocol/protocolVersion"]
	stateless := m.Method != "" && (newHeader || metaVersion || (session == "" && m.Method == "server/discover"))
	// Only a stateless tools/call may go the direct path.
	if p != nil && (!stateless || m.Method != "tools/call" || h.direct == nil) {
		req, p = withPrincipal(req, p), nil
	}
	// The tasks methods run in the task runner's context: the calls
	// context is for the others.
	if stateless && h.auditTask(w, req, &m, body, start, func(w http.ResponseWriter) bool {
		if p == nil {
			return h.serveTasks(w, req, &m, body)
		}
		// A call whose Mcp-Name names a tool without task support is not
		// the tasks code's (serveTasks), which reads the principal from
		// its request.
		return !h.notTaskCall(req) && h.serveTasks(w, withPrincipal(req, p), &m, body)
	}) {
		return
	}
	// A session's tasks of 2025-11-25 (tasks_core.go).
	if !stateless && session != "" {
		if params, ok := h.coreTaskParams(&m, body); ok &&
			h.auditTask(w, req, &m, body, start, func(w http.ResponseWriter) bool { return h.serveCoreTasks(w, req, &m, params, session) }) {
			return
		}
	}
	if !stateless && session != "" && m.Method != "" && h.live != nil {
		if _, ok := h.running.Load(cancelKey{session, mcpwire.IDKey(m.ID)}); ok && len(m.ID) > 0 && clientRequests[m.Method] {
			// A direct call has the id: the SDK would refuse the request.
			duplicateID(&sdkWriter{ResponseWriter: w}, m.ID)
			return
		}
		// A session direct call runs in its session's context: req's
		// needs no calls context.
		if m.Method == "tools/call" && h.serveSessionDirect(w, req, &m, session, post) {
			return
		}
	}
	// The direct path takes the context as it is, with no copy of req.
	var calls context.Context
	if p != nil {
		calls = mcpauth.WithPrincipalValue(req.Context(), p, callsKey{}, h.calls)
	} else {
		calls = withCallsContext(req.Context(), h.calls)
	}
	if stateless && m.Method == "tools/call" && h.direct != nil && h.direct.serveDirect(w, req, calls, &m) {
		return
	}
	req = req.WithContext(calls)
	// The SDK reads the body again: neither the tasks code nor the direct
	// path does.
	req.Body = io.NopCloser(bytes.NewReader(body))
	w = &sdkWriter{ResponseWriter: w}
	if m.Method == "" {
		// Batches and responses: the SDK's to judge.
		h.serveSession(w, req, session)
		return
	}
	if stateless {
		h.stateless.ServeHTTP(w, req)
		return
	}
	id := mcpwire.IDKey(m.ID)
	switch {
	case id != "" && !clientRequests[m.Method]:
		mcpwire.WriteError(w, http.StatusOK, m.ID, mcpwire.NewError(mcpwire.CodeMethodNotFound, "method not found: "+echo(m.Method)))
		return
	case session == "" && m.Method != "initialize":
		mcpwire.WriteError(w, http.StatusBadRequest, m.ID, mcpwire.NewError(mcpwire.CodeInvalidRequest,
			"invalid request: no Mcp-Session-Id header; initialize a session first, or send the protocol version of a sessionless revision"))
		return
	case session == "":
		h.newMu.Lock()
		defer h.newMu.Unlock()
		if n := h.liveSessions(); n >= h.opts.MaxSessions {
			w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
			mcpwire.WriteError(w, http.StatusServiceUnavailable, m.ID, mcpwire.NewError(jsonrpc.CodeInternalError, fmt.Sprintf("too many sessions: %d are open, the limit is %d", n, h.opts.MaxSessions)))
			return
		}
		sw := &sessionStart{ResponseWriter: w}
		h.sessions.ServeHTTP(sw, req)
		if sw.id != "" {
			h.clock.start(sw.id)
			if ss := h.sessionNamed(sw.id); ss != nil && h.live != nil {
				h.live.add(sw.id, ss, req)
			}
		}
		return
	case m.Method == "notifications/cancelled":
		key := cancelKey{session, mcpwire.IDKey(m.Params.RequestID)}
		if c, ok := h.inflight.Load(key); ok {
			c.(*atomic.Bool).Store(true)
		}
		if r, ok := h.running.Load(key); ok {
			r.(*runningCall).cancel()
		}
	case m.Method == "tools/call" && id != "":
		key := cancelKey{session, id}
		cancelled := new(atomic.Bool)
		h.inflight.Store(key, cancelled)
		defer h.inflight.Delete(key)
		w = &cancelFilter{ResponseWriter: w, id: id, cancelled: cancelled}
	}
	h.serveSession(w, req, session)
}

// withPrincipal returns req with a context that carries p.
func withPrincipal(req *http.Request, p *mcpauth.Principal) *http.Request {
	return req.WithContext(mcpauth.WithPrincipal(req.Context(), p))
}

// notTaskCall reports whether req, a tools/call, names with its Mcp-Name
// header a tool without task support: one the tasks code does not serve.
func (h *HTTPHandler) notTaskCall(req *http.Request) bool {
	name := req.Header.Get("Mcp-Name")
	if name == "" {
		return false
	}
	_, ok := h.tasks.tool(name)
	return !ok
}

// withCalls returns req with a context that carries the handler's calls
// context, which Close cancels (callContext).
func (h *HTTPHandler) withCalls(req *http.Request) *http.Request {
	return req.WithContext(withCallsContext(req.Context(), h.calls))
}

// readBody reads a posted body, of at most the SDK's limit: into a buffer
// of its length when the request says it.
func readBody(w http.ResponseWriter, req *http.Request) ([]byte, error) {
	n := req.ContentLength
	if n <= 0 || n > mcp.DefaultMaxRequestBodyBytes {
		return io.ReadAll(http.MaxBytesReader(w, req.Body, mcp.DefaultMaxRequestBodyBytes))
	}
	// n bytes, within the limit: a MaxBytesReader would never refuse them.
	body := make([]byte, n)
	if _, err := io.ReadFull(req.Body, body); err != nil {
		return nil, err
	}
	return body, nil
}

// serveSession serves a request of the session named id, which counts as
// activity for its expiry.
func (h *HTTPHandler) serveSession(w http.ResponseWriter, req *http.Request, id string) {
	if id != "" {
		release := h.clock.hold(id)
		defer release()
	}
	h.sessions.ServeHTTP(w, req)
}

// checkBody reads a posted body: one JSON-RPC message, or a batch of them.
// It returns the message (zero for a batch), or the JSON-RPC error code and
// text that answer a body which is not JSON (-32700) or not JSON-RPC
// (-32600).
func checkBody(body []byte) (m httpMessage, code int, msg string) {
	body = bytes.TrimLeft(body, " \t\r\n")
	switch {
	case len(body) == 0:
		return m, mcpwire.CodeInvalidRequest, "invalid request: the body is empty"
	case body[0] == '[':
		var batch []json.RawMessage
		if err := json.Unmarshal(body, &batch); err != nil {
			return m, mcpwire.CodeParseError, "parse error: the body is not JSON"
		}
		if len(batch) == 0 {
			return m, mcpwire.CodeInvalidRequest, "invalid request: an empty batch"
		}
		for i, raw := range batch {
			var one httpMessage
			if err := json.Unmarshal(raw, &one); err != nil {
				return m, mcpwire.CodeInvalidRequest, fmt.Sprintf("invalid request: message %d of the batch is not a JSON-RPC message", i)
			}
			if text := one.invalid(); text != "" {
				return m, mcpwire.CodeInvalidRequest, fmt.Sprintf("invalid request: message %d of the batch: %s", i, text)
			}
		}
		return m, 0, ""
	case body[0] != '{':
		if !json.Valid(body) {
			return m, mcpwire.CodeParseError, "parse error: the body is not JSON"
		}
		return m, mcpwire.CodeInvalidRequest, "invalid request: a message is a JSON object"
	}
	if _, ok := jsondepth.Valid(body); !ok { // json.Valid, in one quicker pass
		return m, mcpwire.CodeParseError, "parse error: the body is not JSON"
	}
	if quick, ok := readMessage(body); ok {
		m = quick
	} else {
		var slow httpMessage // on the heap for Unmarshal: m stays on the stack
		if err := json.Unmarshal(body, &slow); err != nil {
			return m, mcpwire.CodeInvalidRequest, "invalid request: not a JSON-RPC message"
		}
		m = slow
	}
	if text := m.invalid(); text != "" {
		return m, mcpwire.CodeInvalidRequest, "invalid request: " + text
	}
	return m, 0, ""
}

// invalid says what makes m no JSON-RPC 2.0 message, or "".
func (m *httpMessage) invalid() string {
	switch {
	case m.JSONRPC != "2.0":
		return `"jsonrpc" must be "2.0"`
	case len(m.ID) > 0 && string(m.ID) != "null" && mcpwire.IDKey(m.ID) == "":
		return `"id" must be a string or a number`
	case len(m.ID) > mcpwire.MaxIDBytes:
		return fmt.Sprintf(`"id" is %d bytes long, at most %d`, len(m.ID), mcpwire.MaxIDBytes)
	case m.Method == "" && mcpwire.IDKey(m.ID) == "":
		return `no "method", and no "id" to answer`
	}
	return ""
}

// sessionStart notes the id of the session a response opens.
type sessionStart struct {
	http.ResponseWriter
	id string
}

func (s *sessionStart) WriteHeader(code int) {
	if code == http.StatusOK {
		s.id = s.Header().Get(sessionHeader)
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *sessionStart) Write(b []byte) (int, error) {
	if s.id == "" {
		s.id = s.Header().Get(sessionHeader)
	}
	return s.ResponseWriter.Write(b)
}

// Flush and Unwrap let the SDK flush each event.
func (s *sessionStart) Flush() {
	if fl, ok := s.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

func (s *sessionStart) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// rebound reports a request that reached a loopback address with a Host
// header naming another host: a web page's, through DNS rebinding.
func rebound(req *http.Request) bool {
	local, ok := req.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return ok && local != nil && isLoopbackAddr(local) && !isLoopback(req.Host)
}

// isLoopbackAddr reports whether a listener's address is on the loopback
// interface: a TCP one is read as it is, with no string made of it (every
// request asks).
func isLoopbackAddr(a net.Addr) bool {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.IsLoopback()
	}
	return isLoopback(a.String())
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
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.Zone() == "" && ip.IsLoopback()
}

// liveSessions counts the server's sessions; the ephemeral ones of
// stateless requests have no id and do not count.
func (h *HTTPHandler) liveSessions() int {
	n := 0
	for ss := range h.srv.Sessions() {
		if ss.ID() != "" {
			n++
		}
	}
	return n
}

// knownVersion answers a request whose MCP-Protocol-Version header names
// a revision the server does not speak with -32022 and the revisions it
// does, and reports whether the revision is known (or not named).
func (h *HTTPHandler) knownVersion(w http.ResponseWriter, id json.RawMessage, version string) bool {
	if version == "" || slices.Contains(h.versions, version) {
		return true
	}
	data, _ := json.Marshal(mcp.UnsupportedProtocolVersionData{Supported: h.versions, Requested: limits.Cut(version, limits.MaxEcho)})
	mcpwire.WriteError(w, http.StatusBadRequest, id, &jsonrpc.Error{Code: mcp.CodeUnsupportedProtocolVersion,
		Message: fmt.Sprintf("unsupported protocol version %s in the %s header: this server speaks %s", echo(version), protocolHeader, strings.Join(h.versions, ", ")),
		Data:    data})
	return false
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
			if id, ok := mcpwire.ResponseID(b[i+len("data: "):]); ok && id == f.id {
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

package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/jsondepth"
	"github.com/modkit/modkit/internal/mcpwire"
)

// StdioOptions configure [Server.ServeStdio]. A nil *StdioOptions means defaults.
type StdioOptions struct {
	// MaxLineBytes bounds one input line, that is one message. A longer line
	// is answered with a parse error and skipped. Default: 16 MiB.
	MaxLineBytes int

	// inputEnded, when set, is called once the input has ended (tests).
	inputEnded func()
	// sdkOnly leaves every request to the SDK: no direct path (tests).
	sdkOnly bool
	// direct, when set, is handed the session's direct path (tests).
	direct func(*stdioDirect)
}

// DefaultMaxLineBytes is the default of [StdioOptions.MaxLineBytes].
const DefaultMaxLineBytes = 16 << 20

// hangupPoll is how often, while the input has ended and calls still run,
// the session looks whether the client closed its end of the output.
const hangupPoll = 100 * time.Millisecond

// ServeStdio serves one MCP session on r and w, newline-delimited JSON-RPC,
// until the client closes r, w breaks or ctx is done. It adds to the SDK's
// stdio transport:
//
//   - a line that is not JSON gets a -32700 parse error, and one that is not
//     a JSON-RPC 2.0 message (a batch, a wrong "jsonrpc", a bad id) a -32600
//     invalid request, both with id null, and the session goes on; so does
//     a line over MaxLineBytes, which is skipped;
//   - when r ends, no more is read, and the requests already read run to
//     their end, within their own limits, and are answered before
//     ServeStdio returns: a client may write its requests and close its
//     end at once (modhost mcp < requests.jsonl). A request the server
//     sent the client (an elicitation, say) and that the client has not
//     answered gets an error answer at once: no answer can come;
//   - when w breaks, or (on Linux, for a pipe or a socket) the client
//     closed its end of w, or ctx is done, every call in flight is
//     cancelled at once;
//   - a request the client cancelled with notifications/cancelled gets no
//     response, as the MCP cancellation utility asks; the handler's context
//     is cancelled as usual;
//   - on Linux, r and w that are pipes or sockets (*os.File) are read and
//     written through non-blocking duplicates, in the runtime's poller,
//     and get their mode back when ServeStdio returns (stdio_raw_linux.go).
//
// Calls are cancelled through the handler's context.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer, opts *StdioOptions) error {
	var o StdioOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	calls, abortCalls := context.WithCancel(context.Background())
	defer abortCalls()
	runCtx, stopRun := context.WithCancel(withCallsContext(ctx, calls))
	defer stopRun()

	drain, hangup := drainer(w), hangupCheck(w)
	r, w, release := rawStdio(r, w)
	defer release()
	p := newPending()
	out := &outputFilter{w: w, p: p, broken: func() { abortCalls(); stopRun(); p.abort() }, drain: drain}
	in := &inputFilter{
		br:     bufio.NewReaderSize(r, 64<<10),
		r:      r,
		p:      p,
		out:    out,
		max:    o.MaxLineBytes,
		hangup: hangup,
		ended:  o.inputEnded,
	}
	if s.direct != nil && !o.sdkOnly {
		in.direct = newStdioDirect(s.direct, runCtx, out)
		if o.direct != nil {
			o.direct(in.direct)
		}
	}
	if s.tasks.overStdio() && !o.sdkOnly {
		in.tasks = newStdioTasks(s.tasks, runCtx, out)
	}
	stop := context.AfterFunc(ctx, func() { abortCalls(); p.abort() })
	defer stop()

	t := &mcp.IOTransport{Reader: in, Writer: out, MaxLineLength: -1}
	err := runSession(runCtx, s.mcp, tagRequestIDs(t), in.direct, in.tasks)
	if in.direct != nil {
		abortCalls() // calls of a session that ended without answering them
		in.direct.wait()
	}
	if in.tasks != nil {
		in.tasks.wait()
	}
	if out.err() != nil {
		return fmt.Errorf("write: %w", out.err())
	}
	if err == nil || errors.Is(err, io.EOF) || runCtx.Err() != nil {
		return nil
	}
	return err
}

// runSession is [mcp.Server.Run], which also hands direct and tasks the
// session.
func runSession(ctx context.Context, srv *mcp.Server, t mcp.Transport, direct *stdioDirect, tasks *stdioTasks) error {
	ss, err := srv.Connect(ctx, t, nil)
	if direct != nil {
		direct.connected(ss)
	}
	if tasks != nil {
		tasks.core.connected(ss)
	}
	if err != nil {
		return err
	}
	closed := make(chan error, 1)
	go func() { closed <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close()
		<-closed
		return ctx.Err()
	case err := <-closed:
		return err
	}
}

// callsKey is the context key of a session's calls context.
type callsKey struct{}

// withCallsContext returns ctx carrying calls: when calls is done, the
// tools/call handlers of the session are cancelled. The SDK hands handlers
// a context that keeps the values of the session's context but not its
// cancellation.
func withCallsContext(ctx, calls context.Context) context.Context {
	return context.WithValue(ctx, callsKey{}, calls)
}

// callContext returns the context a tools/call handler runs its call with:
// ctx, also cancelled when the session's calls are.
func callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	calls, ok := ctx.Value(callsKey{}).(context.Context)
	if !ok {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(calls, cancel)
	return ctx, func() { stop(); cancel() }
}

// pending tracks the client's requests read and not yet answered, and the
// server's requests written and not yet answered, by id.
type pending struct {
	mu sync.Mutex
	// changed, once atEnd waits on it, is closed (and left nil) when open
	// empties, on a server request, or on abort.
	changed chan struct{}
	open    map[string]bool // id -> cancelled by the client
	// asked are the server's requests to the client: id -> the id as
	// written.
	asked   map[string]json.RawMessage
	aborted bool
}

func newPending() *pending {
	return &pending{open: map[string]bool{}, asked: map[string]json.RawMessage{}}
}

// asking records a request the server wrote to the client.
func (p *pending) asking(id string, raw json.RawMessage) {
	p.mu.Lock()
	p.asked[id] = raw
	p.signal()
	p.mu.Unlock()
}

// replied records the client's answer to a request of the server's.
func (p *pending) replied(id string) {
	p.mu.Lock()
	delete(p.asked, id)
	p.mu.Unlock()
}

// request records a request read.
func (p *pending) request(id string) {
	p.mu.Lock()
	p.open[id] = false
	p.mu.Unlock()
}

// cancel records that the client cancelled a request still open.
func (p *pending) cancel(id string) {
	p.mu.Lock()
	if _, ok := p.open[id]; ok {
		p.open[id] = true
	}
	p.mu.Unlock()
}

// answered records the response to id and reports whether to drop it
// because the client cancelled the request.
func (p *pending) answered(id string) (drop bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	cancelled, ok := p.open[id]
	delete(p.open, id)
	if ok && len(p.open) == 0 {
		p.signal()
	}
	return ok && cancelled
}

// signal wakes the waiters; p.mu is held.
func (p *pending) signal() {
	if p.changed != nil {
		close(p.changed)
		p.changed = nil
	}
}

// atEnd is called once the input has ended. It returns an error answer
// to one of the server's requests still unanswered, for the SDK to read,
// since the client can no longer answer; or, once every request read is
// answered, or on abort, nil. hangup, when not nil, reports whether the
// client closed its end of the output; then atEnd calls broken and returns
// nil.
func (p *pending) atEnd(hangup func() bool, broken func()) []byte {
	var tick <-chan time.Time
	if hangup != nil {
		t := time.NewTicker(hangupPoll)
		defer t.Stop()
		tick = t.C
	}
	for {
		p.mu.Lock()
		if p.changed == nil {
			p.changed = make(chan struct{})
		}
		done, aborted, changed := len(p.open) == 0, p.aborted, p.changed
		for id, raw := range p.asked {
			delete(p.asked, id)
			p.mu.Unlock()
			return append(mcpwire.AppendError(nil, raw, mcpwire.NewError(mcpwire.CodeInternalError, "the client's input ended before it answered")), '\n')
		}
		p.mu.Unlock()
		if done || aborted {
			return nil
		}
		select {
		case <-changed:
		case <-tick:
			if hangup() {
				broken()
				return nil
			}
		}
	}
}

// abort ends every wait.
func (p *pending) abort() {
	p.mu.Lock()
	if !p.aborted {
		p.aborted = true
		p.signal()
	}
	p.mu.Unlock()
}

// inputFilter hands the SDK the input's valid messages, one per line,
// answers the others itself, notes the requests and cancellations, and
// holds back the end of the input until the requests are answered: the
// SDK cancels every call in flight when its input ends.
type inputFilter struct {
	br     *bufio.Reader
	r      io.Reader // closed by Close
	p      *pending
	out    *outputFilter
	max    int
	hangup func() bool  // reports whether the client closed the output; nil: cannot tell
	ended  func()       // called once the input has ended; may be nil
	direct *stdioDirect // serves plain tools/call requests; nil: the SDK serves all
	tasks  *stdioTasks  // serves the tasks extension; nil: the SDK serves all

	// call is the tools/call or tasks request check read last, for the
	// direct path and the tasks.
	call struct {
		id, method    string
		rawID, params json.RawMessage
	}

	line        []byte // the rest of the current message for the SDK
	eof         bool
	initialized bool // an initialize request was read
}

func (in *inputFilter) Read(b []byte) (int, error) {
	for len(in.line) == 0 {
		if in.eof {
			if in.line = in.p.atEnd(in.hangup, in.out.hungUp); in.line == nil {
				return 0, io.EOF
			}
			break
		}
		if err := in.next(); err != nil {
			if !errors.Is(err, io.EOF) {
				return 0, err
			}
			in.eof = true
			if in.tasks != nil {
				in.tasks.inputEnded()
			}
			if in.ended != nil {
				in.ended()
			}
		}
	}
	n := copy(b, in.line)
	in.line = in.line[n:]
	return n, nil
}

// next reads lines until one holds a message for the SDK, and sets
// in.line to it.
func (in *inputFilter) next() error {
	for {
		line, tooLong, err := in.readLine()
		if tooLong {
			in.out.writeError(nil, mcpwire.CodeParseError, fmt.Sprintf("parse error: message over %d bytes", in.max))
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			if code, msg, id := in.check(line); code != 0 {
				in.out.writeError(id, code, msg)
			} else if in.call.id != "" && in.tasks != nil && in.tasks.serve(in.call.method, in.call.id, in.call.rawID, in.call.params) {
				// Answered by the tasks.
			} else if in.call.id != "" && in.call.method == "tools/call" && in.direct != nil && in.direct.serve(line, in.call.id, in.call.rawID, in.call.params) {
				// Answered by the direct path.
			} else {
				in.line = append(line, '\n')
				return nil
			}
		}
		if err != nil {
			return err
		}
	}
}

// readLine returns the next line without its newline, or reports that it
// is longer than in.max and was skipped. At the end of the input it returns
// the unterminated last line, if any, with io.EOF.
func (in *inputFilter) readLine() (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := in.br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > in.max+1 { // +1: the newline
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil:
			return buf, tooLong, err
		default:
			return buf[:max(len(buf)-1, 0)], tooLong, nil
		}
	}
}

// Close ends the session: a Read waiting for answers returns.
func (in *inputFilter) Close() error {
	in.p.abort()
	if c, ok := in.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// maxDepth is the deepest nesting the SDK decodes.
const maxDepth = 1000

// check reads one message as the SDK will, notes its request or
// cancellation, and returns the JSON-RPC error code and message that
// answers it, with the id to answer (nil for null), when the SDK would not
// accept it, or 0.
func (in *inputFilter) check(line []byte) (code int, msg string, answer json.RawMessage) {
	in.call.id = ""
	switch {
	case line[0] == '{':
	case !json.Valid(line):
		return mcpwire.CodeParseError, "parse error: not a JSON value", nil
	case line[0] == '[':
		return mcpwire.CodeInvalidRequest, "invalid request: batches are not supported", nil
	default:
		return mcpwire.CodeInvalidRequest, "invalid request: a message is a JSON object", nil
	}
	depth, ok := jsondepth.Valid(line) // json.Valid, and the depth
	if !ok {
		return mcpwire.CodeParseError, "parse error: not a JSON value", nil
	}
	m, ok := topFields(line) // case-sensitive keys, as the SDK reads them
	if !ok {
		return mcpwire.CodeParseError, "parse error: not a JSON value", nil
	}
	if depth > maxDepth {
		return mcpwire.CodeInvalidRequest, fmt.Sprintf("invalid request: nested deeper than %d", maxDepth), nil
	}
	if string(m.jsonrpc) != `"2.0"` {
		return mcpwire.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`, nil
	}
	rawID, hasID := m.id, m.id != nil
	id := ""
	if hasID && string(rawID) != "null" {
		if id = mcpwire.IDKey(rawID); id == "" {
			return mcpwire.CodeInvalidRequest, `invalid request: "id" must be a string or a number`, nil
		}
	}
	method, isRequest := m.method, m.method != nil
	if !isRequest {
		// A response to a request of the server's.
		if id == "" {
			return mcpwire.CodeInvalidRequest, `invalid request: no "method", and no "id" to answer`, nil
		}
		defer in.p.replied(id)
		if e := m.error; e != nil && string(e) != "null" {
			var we struct {
				Code    int64           `json:"code"`
				Message string          `json:"message"`
				Data    json.RawMessage `json:"data"`
			}
			if json.Unmarshal(e, &we) != nil {
				return mcpwire.CodeInvalidRequest, `invalid request: "error" must be an object with a code and a message`, nil
			}
		}
		return 0, "", nil
	}
	name, ok := methodName(method)
	if !ok {
		return mcpwire.CodeInvalidRequest, `invalid request: "method" must be a string`, nil
	}
	if name == "initialize" {
		in.initialized = true
	} else if id != "" && !in.initialized && !preInitialize[name] && !sessionlessRequest(m.params) {
		// The SDK answers with code 0.
		return mcpwire.CodeInvalidRequest, fmt.Sprintf("invalid request: %s before initialize", name), rawID
	}
	switch {
	case name == "notifications/cancelled":
		var params struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(m.params, &params) == nil {
			if rid := mcpwire.IDKey(params.RequestID); rid != "" {
				in.p.cancel(rid)
				if in.direct != nil {
					in.direct.cancel(rid)
				}
				if in.tasks != nil {
					in.tasks.cancel(rid)
				}
			}
		}
	case id != "":
		in.p.request(id)
		if name == "tools/call" && in.direct != nil || stdioTaskRoutes[name] && in.tasks != nil {
			in.call.id, in.call.method, in.call.rawID, in.call.params = id, name, rawID, m.params
		}
	}
	return 0, "", nil
}

// methodName decodes the valid JSON value method as a string, as
// json.Unmarshal does: in place when it has no escapes and is valid UTF-8.
func methodName(method json.RawMessage) (string, bool) {
	if len(method) >= 2 && method[0] == '"' && bytes.IndexByte(method, '\\') < 0 && utf8.Valid(method) {
		return mcpwire.KnownKey(method[1 : len(method)-1]), true
	}
	var name string
	err := json.Unmarshal(method, &name)
	return name, err == nil
}

// messageFields are the top-level members of a JSON-RPC message the
// filters read; nil when absent.
type messageFields struct {
	jsonrpc, id, method, params, error json.RawMessage
}

// topFields reads the members of the valid JSON object line that the
// filters look at, the last of each name winning, as when it is decoded
// into a map.
func topFields(line []byte) (m messageFields, ok bool) {
	r, ok := mcpwire.NewFields(line)
	if !ok {
		return m, false
	}
	for {
		key, more := r.Next()
		if !more {
			return m, true
		}
		v, ok := r.Value()
		if !ok {
			return m, false
		}
		switch key {
		case "jsonrpc":
			m.jsonrpc = v
		case "id":
			m.id = v
		case "method":
			m.method = v
		case "params":
			m.params = v
		case "error":
			m.error = v
		}
	}
}

// preInitialize are the requests a client may send before initialize.
var preInitialize = map[string]bool{"ping": true, "server/discover": true}

// sessionlessRequest reports whether a request's params carry the protocol version
// of a sessionless protocol (2026-07-28), which needs no initialize.
func sessionlessRequest(params json.RawMessage) bool {
	if sessionless, ok := sessionlessMembers(params); ok {
		return sessionless
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	return json.Unmarshal(params, &p) == nil && p.Meta["io.modelcontextprotocol/protocolVersion"] != nil
}

// sessionlessMembers is sessionlessRequest read from the members of
// params, not decoded, when its _meta is absent or there once, spelled so
// (json.Unmarshal would match another case too, and merge repeats); ok is
// false otherwise.
func sessionlessMembers(params json.RawMessage) (sessionless, ok bool) {
	r, ok := mcpwire.NewFields(params)
	if !ok {
		return false, false
	}
	var meta json.RawMessage
	for {
		key, more := r.Next()
		if !more {
			break
		}
		v, ok := r.Value()
		switch {
		case !ok:
			return false, false
		case key == "_meta" && meta == nil:
			meta = v
		case strings.EqualFold(key, "_meta"):
			return false, false
		}
	}
	if len(meta) == 0 || meta[0] != '{' {
		return false, true // absent, null, or not an object: no version
	}
	m, _ := mcpwire.NewFields(meta)
	for {
		key, more := m.Next()
		if !more {
			return false, true
		}
		if key == mcp.MetaKeyProtocolVersion {
			return true, true // any value, null too, decodes as present
		}
		if _, ok := m.Value(); !ok {
			return false, false
		}
	}
}

// outputFilter passes the SDK's writes to w, noting the responses, and
// drops the responses to requests the client cancelled. The SDK writes one
// message per Write, so each notification reaches w in a write of its own.
// When w fails, broken is called once and every later write fails.
//
// A response that follows a notification waits, when w is a pipe or a
// socket, until the client has read the notification: the official TypeScript client
// handles notifications a tick after the messages read with them, so a
// progress notification read together with its call's response comes after
// the response and is dropped.
type outputFilter struct {
	w      io.Writer
	p      *pending
	broken func()
	drain  func() // waits until the client read what was written; nil: no wait

	mu       sync.Mutex
	writeErr error
	noteAt   time.Time // when the last notification was written
}

// maxDrainWait bounds how long a response waits for the client to read the
// notifications before it, and drainSettle is how long it then gives the
// client to handle what it read.
const (
	maxDrainWait = 10 * time.Millisecond
	drainSettle  = 500 * time.Microsecond
)

// notificationPrefix starts every notification the SDK writes.
var notificationPrefix = []byte(`{"jsonrpc":"2.0","method":"notifications/`)

func (out *outputFilter) Write(b []byte) (int, error) {
	id, rawID, kind := mcpwire.MessageID(b)
	if kind == mcpwire.KindResponse && out.p.answered(id) {
		return len(b), nil
	}
	if kind == mcpwire.KindRequest {
		out.p.asking(id, rawID)
	}
	isResponse := kind == mcpwire.KindResponse
	if out.drain != nil {
		out.mu.Lock()
		noteAt := out.noteAt
		if bytes.HasPrefix(b, notificationPrefix) {
			out.noteAt = time.Now()
		}
		out.mu.Unlock()
		if isResponse && !noteAt.IsZero() && time.Since(noteAt) < maxDrainWait {
			out.drain()
		}
	}
	return out.write(b)
}

// drainer returns what waits for the client to read w, when w is a pipe or
// a socket; nil otherwise.
func drainer(w io.Writer) func() {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return nil
	}
	return outputDrainer(f, fi.Mode()&os.ModeSocket != 0)
}

// hangupCheck returns what reports whether the client closed its end of w,
// when w is a pipe or a socket and the system can tell; nil otherwise.
func hangupCheck(w io.Writer) func() bool {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return nil
	}
	return closedCheck(f, fi.Mode()&os.ModeSocket != 0)
}

func (out *outputFilter) write(b []byte) (int, error) {
	out.mu.Lock()
	defer out.mu.Unlock()
	if out.writeErr != nil {
		return 0, out.writeErr
	}
	n, err := out.w.Write(b)
	if err != nil {
		out.writeErr = err
		go out.broken()
	}
	return n, err
}

// writeError writes a JSON-RPC error response to id, or with id null.
func (out *outputFilter) writeError(id json.RawMessage, code int, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	out.write(append(mcpwire.AppendError(nil, id, mcpwire.NewError(int64(code), msg)), '\n'))
}

// errHungUp is the output's error once the client closed its end.
var errHungUp = errors.New("the client closed its end of the output")

// hungUp fails the output, as a failed write does, when the client closed
// its end.
func (out *outputFilter) hungUp() {
	out.mu.Lock()
	defer out.mu.Unlock()
	if out.writeErr == nil {
		out.writeErr = errHungUp
		go out.broken()
	}
}

func (out *outputFilter) err() error {
	out.mu.Lock()
	defer out.mu.Unlock()
	return out.writeErr
}

func (out *outputFilter) Close() error { return nil }

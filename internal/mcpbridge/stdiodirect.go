package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpwire"
	"github.com/modkit/modkit/internal/telemetry"
)

// The stdio direct path: a plain tools/call in a session (a revision
// before 2026-07-28) is answered by ServeStdio itself, with the tool's
// handler NewServer gave the SDK, instead of through the SDK, which decodes
// each message four times over (each time into a fresh 32 KiB buffer) and
// encodes the result through reflection. The handler gets the session, as
// from the SDK: its logs, elicitations and other requests to the client go
// through the SDK as before. Anything out of the plain (params other than
// name and arguments, such as _meta with a progress token, a task or
// answers; an id the SDK would write back otherwise; a tool the server
// does not know; telemetry on, whose spans the SDK's middleware makes) is
// left to the SDK, so that both paths answer alike. The SDK still sees the
// client's notifications, including cancellations, which ServeStdio also
// applies to the calls it runs.

// stdioDirect runs the direct calls of one stdio session.
type stdioDirect struct {
	calls *directCalls
	// ctx is the calls' context: the session's values, without its
	// cancellation, as the SDK gives its handlers, but cancelled with the
	// session's calls (withCallsContext), which the handler's
	// callContext then need not tie each call to; stopCtx releases it.
	ctx     context.Context
	stopCtx func()
	out     *outputFilter
	// serverInfo is the encoding of the server's name and version, which
	// sessionless results carry; nil if it did not encode.
	serverInfo []byte
	// session is the SDK's session, set when Connect returned (nil if it
	// failed); known is closed then. The SDK may read lines before
	// Connect returns: a call read then waits for it.
	session atomic.Pointer[mcp.ServerSession]
	known   chan struct{}

	mu      sync.Mutex
	running map[string]context.CancelFunc // by canonical id
	served  atomic.Int64                  // calls taken, for tests

	// kept runs the calls; stop, closed by wait, ends its goroutines.
	kept *keptGoroutines
	stop chan struct{}
}

// maxIdleCallers is how many goroutines of ended direct calls wait for the
// next call.
const maxIdleCallers = 4

func newStdioDirect(calls *directCalls, ctx context.Context, out *outputFilter) *stdioDirect {
	info, _ := json.Marshal(calls.impl)
	d := &stdioDirect{calls: calls, out: out, serverInfo: info,
		running: map[string]context.CancelFunc{}, known: make(chan struct{}), stop: make(chan struct{})}
	base, cancel := context.WithCancel(context.WithValue(context.WithoutCancel(ctx), callsKey{}, nil))
	d.ctx, d.stopCtx = base, cancel
	if sessionCalls, ok := ctx.Value(callsKey{}).(context.Context); ok {
		stop := context.AfterFunc(sessionCalls, cancel)
		d.stopCtx = func() { stop(); cancel() }
	}
	d.kept = newKeptGoroutines(maxIdleCallers, d.stop)
	return d
}

// connected records the session Connect returned, nil if it failed.
func (d *stdioDirect) connected(ss *mcp.ServerSession) {
	d.session.Store(ss)
	close(d.known)
}

// serve runs the tools/call request line, whose id is id (canonical) and
// rawID (as written), and whose params are params, and reports whether it
// took it; when it did not, nothing was done.
func (d *stdioDirect) serve(line []byte, id string, rawID, params json.RawMessage) bool {
	if telemetry.Tracing() || telemetry.Metering() {
		return false
	}
	<-d.known
	ss := d.session.Load()
	if ss == nil {
		return false
	}
	ip := ss.InitializeParams()
	if ip == nil || !plainID(rawID) || !plainRequest(line) {
		return false
	}
	name, args, meta, ok := callMembers(params)
	if !ok {
		return false
	}
	p, ok := callParamsOf(name, args, meta, &d.calls.metas)
	if !ok {
		return false
	}
	// A call without _meta runs in a session of an earlier revision; one
	// with, sessionless (2026-07-28), carries the plain _meta of that
	// revision.
	sessionless := p.Meta != nil
	if sessionless && !d.calls.plainMeta(meta) || !sessionless && ip.ProtocolVersion >= multiRoundTrip {
		return false
	}
	answer := resultShape{inputRequired: ip.ProtocolVersion >= multiRoundTrip}
	if sessionless {
		answer.serverInfo, answer.serverInfoJSON = d.calls.impl, d.serverInfo
	}
	handler, ok := d.calls.handler(p.Name)
	if !ok {
		return false
	}
	ctx, cancel := context.WithCancel(d.ctx)
	d.mu.Lock()
	d.running[id] = cancel
	d.mu.Unlock()
	rawID = bytes.Clone(rawID)
	d.served.Add(1)
	d.kept.run(func() {
		defer func() {
			d.mu.Lock()
			delete(d.running, id)
			d.mu.Unlock()
			cancel()
		}()
		res, err := handler(ctx, &mcp.CallToolRequest{Session: ss, Params: p})
		cancel() // as callContext's, when the handler returns
		d.out.Write(answer.response(rawID, res, err))
	})
	return true
}

// cancel cancels the direct call id (canonical), if one runs.
func (d *stdioDirect) cancel(id string) {
	d.mu.Lock()
	cancel := d.running[id]
	d.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// wait waits until the direct calls have answered; no call comes after.
func (d *stdioDirect) wait() {
	close(d.stop)
	d.kept.wait()
	d.stopCtx()
}

// plainID reports whether a request id is an integer, or a string without
// escapes, which the SDK writes back as it was written.
func plainID(raw json.RawMessage) bool {
	if len(raw) > 0 && raw[0] == '"' {
		return bytes.IndexByte(raw, '\\') < 0 && mcpwire.IDKey(raw) != ""
	}
	return directID(raw)
}

// plainRequest reports whether the message line has the members of a
// request, each once, and no other.
func plainRequest(line []byte) bool {
	r, ok := mcpwire.NewFields(line)
	if !ok {
		return false
	}
	var seen [4]bool
	for {
		key, more := r.Next()
		if !more {
			return seen == [4]bool{true, true, true, true}
		}
		i := -1
		switch key {
		case "jsonrpc":
			i = 0
		case "id":
			i = 1
		case "method":
			i = 2
		case "params":
			i = 3
		}
		if i < 0 || seen[i] {
			return false
		}
		seen[i] = true
		if _, ok := r.Value(); !ok {
			return false
		}
	}
}

// callMembers reads the params of a tools/call that has a name, and
// perhaps arguments and _meta, each once, and nothing else, and returns
// their values, unread.
func callMembers(params json.RawMessage) (name, args, meta json.RawMessage, ok bool) {
	r, ok := mcpwire.NewFields(params)
	if !ok {
		return nil, nil, nil, false
	}
	for {
		key, more := r.Next()
		if !more {
			return name, args, meta, name != nil
		}
		v, ok := r.Value()
		switch {
		case !ok:
			return nil, nil, nil, false
		case key == "name" && name == nil:
			name = v
		case key == "arguments" && args == nil:
			args = v
		case key == "_meta" && meta == nil:
			meta = v
		default:
			return nil, nil, nil, false
		}
	}
}

// plainCallParams reads the params of a tools/call that has a name, and
// perhaps arguments and _meta, objects, each once, and nothing else. Its
// _meta is decoded through metas, when not nil. The arguments are params'
// own bytes, which must stay as they are: a posted body's, read for this
// request alone.
func plainCallParams(params json.RawMessage, metas *metaMemo) (*mcp.CallToolParamsRaw, bool) {
	name, args, meta, ok := callMembers(params)
	if !ok {
		return nil, false
	}
	return readCallParams(name, args, meta, metas, false)
}

// callParamsOf is plainCallParams of the members callMembers read, with
// arguments of their own: a line's buffer is read again.
func callParamsOf(name, args, meta json.RawMessage, metas *metaMemo) (*mcp.CallToolParamsRaw, bool) {
	return readCallParams(name, args, meta, metas, true)
}

// readCallParams is callParamsOf, whose arguments are a copy when clone is
// set.
func readCallParams(name, args, meta json.RawMessage, metas *metaMemo, clone bool) (*mcp.CallToolParamsRaw, bool) {
	p := &mcp.CallToolParamsRaw{}
	if len(name) < 2 || name[0] != '"' {
		return nil, false
	}
	if bytes.IndexByte(name, '\\') < 0 && utf8.Valid(name) {
		p.Name = string(name[1 : len(name)-1]) // as it decodes
	} else if json.Unmarshal(name, &p.Name) != nil {
		return nil, false
	}
	if args != nil {
		if args[0] != '{' {
			return nil, false
		}
		p.Arguments = args
		if clone {
			p.Arguments = bytes.Clone(args)
		}
	}
	if meta != nil {
		if meta[0] != '{' {
			return nil, false
		}
		m, ok := metas.decode(meta)
		if !ok {
			return nil, false
		}
		p.Meta = m
	}
	return p, true
}

// metaMemo remembers the last _meta of a call it decoded, as written, and
// what it decoded to: a sessionless client sends the same _meta (its
// protocol version, capabilities and name) with every call, which took
// more to decode into maps than the rest of the call's reading.
type metaMemo struct {
	last atomic.Pointer[memoMeta]
}

type memoMeta struct {
	raw  string
	meta mcp.Meta
}

// maxMemoMeta is the longest _meta a metaMemo keeps.
const maxMemoMeta = 4 << 10

// decode decodes the _meta object raw as json.Unmarshal does, into a map
// of the caller's own; mm may be nil.
func (mm *metaMemo) decode(raw json.RawMessage) (mcp.Meta, bool) {
	if mm != nil {
		if m := mm.last.Load(); m != nil && m.raw == string(raw) {
			return cloneJSONObject(m.meta), true
		}
	}
	var meta mcp.Meta
	if json.Unmarshal(raw, &meta) != nil {
		return nil, false
	}
	if mm != nil && len(raw) <= maxMemoMeta {
		mm.last.Store(&memoMeta{raw: string(raw), meta: cloneJSONObject(meta)})
	}
	return meta, true
}

// cloneJSONObject copies a decoded JSON object, and the objects and
// arrays in it, so that no two handlers share a map.
func cloneJSONObject(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneJSONValue(v)
	}
	return out
}

// cloneJSONValue copies a value json.Unmarshal decoded into an any.
func cloneJSONValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return cloneJSONObject(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = cloneJSONValue(x)
		}
		return out
	default:
		return v // a string, a float64, a bool or nil
	}
}

// plainMeta is metaOK of the _meta of a tools/call's params, read as
// written, without a map: each of its members once. As metaOK, it decodes
// the client's capabilities and name only the first time it sees them.
func (calls *directCalls) plainMeta(meta json.RawMessage) bool {
	r, ok := mcpwire.NewFields(meta)
	if !ok {
		return false
	}
	var version, caps, info json.RawMessage
	for {
		key, more := r.Next()
		if !more {
			break
		}
		v, ok := r.Value()
		var member *json.RawMessage
		switch {
		case !ok:
			return false
		case key == mcp.MetaKeyProtocolVersion:
			member = &version
		case key == mcp.MetaKeyClientCapabilities:
			member = &caps
		case key == mcp.MetaKeyClientInfo:
			member = &info
		default:
			return false
		}
		if *member != nil {
			return false
		}
		*member = v
	}
	return string(version) == `"`+multiRoundTrip+`"` &&
		len(caps) > 0 && caps[0] == '{' && calls.caps.check(caps, decodesAs[mcp.ClientCapabilities]) &&
		(info == nil || info[0] == '{' && calls.infos.check(info, decodesAs[mcp.Implementation]))
}

// decodesAs reports whether b decodes into a T.
func decodesAs[T any](b []byte) bool {
	return json.Unmarshal(b, new(T)) == nil
}

// resultShape is what the SDK adds to a tools/call result over stdio.
type resultShape struct {
	// inputRequired: the session's revision has resultType, "complete"
	// or "input_required".
	inputRequired bool
	// serverInfo, for a sessionless call, names the server in the result's
	// _meta; serverInfoJSON is its encoding, nil if not known.
	serverInfo     *mcp.Implementation
	serverInfoJSON []byte
}

// wireResult is a CallToolResult as the SDK writes it, with the
// resultType the SDK keeps unexported: its fields, then resultType, then
// inputRequests.
type wireResult struct {
	callToolFields
	ResultType    string          `json:"resultType,omitempty"`
	InputRequests json.RawMessage `json:"inputRequests,omitempty"`
}

// callToolFields are the exported fields of mcp.CallToolResult, without
// its MarshalJSON.
type callToolFields mcp.CallToolResult

// response is the response line to the call id that returned res and err,
// as the SDK writes it.
func (shape resultShape) response(id json.RawMessage, res *mcp.CallToolResult, err error) []byte {
	if err == nil && res != nil && len(id) > 0 {
		// Text alone, as most tools answer: written in place.
		n := len(id) + len(shape.serverInfoJSON) + 96
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok && t != nil {
				n += len(t.Text) + len(t.Text)/8 + 32
			}
		}
		b := append(make([]byte, 0, n), `{"jsonrpc":"2.0","id":`...)
		b = append(b, id...)
		b = append(b, `,"result":`...)
		if b, ok := shape.appendText(b, res); ok {
			return append(b, '}', '\n')
		}
	}
	var result []byte
	if err == nil {
		result, err = shape.result(res)
	}
	if err != nil {
		return append(mcpwire.AppendError(nil, id, mcpwire.HandlerError(err)), '\n')
	}
	return append(mcpwire.AppendResult(make([]byte, 0, len(result)+len(id)+36), id, result), '\n')
}

// result encodes res as the SDK does.
func (shape resultShape) result(res *mcp.CallToolResult) ([]byte, error) {
	if res == nil {
		return []byte("null"), nil
	}
	if b, ok := shape.appendText(nil, res); ok {
		return b, nil
	}
	return shape.encode(res)
}

// encode encodes res as the SDK does, through reflection.
func (shape resultShape) encode(res *mcp.CallToolResult) ([]byte, error) {
	hasContent := len(res.Content) > 0 || res.StructuredContent != nil
	if res.InputRequests != nil && hasContent {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "server bug: result has both content and inputRequests"}
	}
	if res.InputRequests != nil && !shape.inputRequired {
		// The handler asks a client of an earlier revision in the call
		// itself (host.ErrAskLater is only for later revisions), so no
		// input requests come back; the SDK would ask them on its own.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "server bug: input requests for a client that answers none"}
	}
	w := wireResult{callToolFields: callToolFields(*res)}
	w.callToolFields.InputRequests = nil // written after resultType
	if shape.inputRequired {
		w.ResultType = "complete"
		if res.InputRequests != nil {
			w.ResultType = "input_required"
		}
	}
	if w.Content == nil && w.ResultType != "input_required" {
		w.Content = []mcp.Content{} // never "null"
	}
	if shape.serverInfo != nil {
		meta := map[string]any{}
		for k, v := range res.Meta {
			meta[k] = v
		}
		if _, ok := meta[mcp.MetaKeyServerInfo]; !ok {
			meta[mcp.MetaKeyServerInfo] = shape.serverInfo
		}
		w.Meta = meta
	}
	if res.InputRequests != nil {
		ir, err := json.Marshal(res.InputRequests)
		if err != nil {
			return nil, err
		}
		w.InputRequests = ir
	}
	return json.Marshal(w)
}

// appendText appends res as result encodes it, without reflection, when
// its content is text alone, as most tools answer, and it has none of the
// rest (its own _meta, structured content, input requests, a request
// state); ok is false otherwise, and then nothing was appended.
func (shape resultShape) appendText(dst []byte, res *mcp.CallToolResult) ([]byte, bool) {
	if res.Meta != nil || res.StructuredContent != nil || res.InputRequests != nil || res.RequestState != "" ||
		shape.serverInfo != nil && shape.serverInfoJSON == nil {
		return dst, false
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); !ok || t == nil || t.Meta != nil || t.Annotations != nil {
			return dst, false
		}
	}
	dst = append(dst, '{')
	if shape.serverInfo != nil {
		dst = append(dst, `"_meta":{"`+mcp.MetaKeyServerInfo+`":`...)
		dst = append(dst, shape.serverInfoJSON...)
		dst = append(dst, "},"...)
	}
	dst = append(dst, `"content":[`...)
	for i, c := range res.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"type":"text","text":`...)
		dst = appendJSONString(dst, c.(*mcp.TextContent).Text)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	if res.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	if shape.inputRequired {
		dst = append(dst, `,"resultType":"complete"`...)
	}
	return append(dst, '}'), true
}

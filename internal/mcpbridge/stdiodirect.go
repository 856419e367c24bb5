package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

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
	// cancellation, as the SDK gives its handlers.
	ctx context.Context
	out *outputFilter
	// session is the SDK's session, once Connect returned it.
	session atomic.Pointer[mcp.ServerSession]

	mu      sync.Mutex
	running map[string]context.CancelFunc // by canonical id
	wg      sync.WaitGroup
	served  atomic.Int64 // calls taken, for tests
}

func newStdioDirect(calls *directCalls, ctx context.Context, out *outputFilter) *stdioDirect {
	return &stdioDirect{calls: calls, ctx: context.WithoutCancel(ctx), out: out, running: map[string]context.CancelFunc{}}
}

// serve runs the tools/call request line, whose id is id (canonical) and
// rawID (as written), and whose params are params, and reports whether it
// took it; when it did not, nothing was done.
func (d *stdioDirect) serve(line []byte, id string, rawID, params json.RawMessage) bool {
	if telemetry.Tracing() || telemetry.Metering() {
		return false
	}
	ss := d.session.Load()
	if ss == nil {
		return false
	}
	ip := ss.InitializeParams()
	if ip == nil || ip.ProtocolVersion >= multiRoundTrip || !plainID(rawID) || !plainRequest(line) {
		return false
	}
	p, ok := plainCallParams(params)
	if !ok {
		return false
	}
	handler, ok := d.calls.handlers[p.Name]
	if !ok {
		return false
	}
	ctx, cancel := context.WithCancel(d.ctx)
	d.mu.Lock()
	d.running[id] = cancel
	d.mu.Unlock()
	rawID = bytes.Clone(rawID)
	d.served.Add(1)
	d.wg.Go(func() {
		defer func() {
			d.mu.Lock()
			delete(d.running, id)
			d.mu.Unlock()
			cancel()
		}()
		res, err := handler(ctx, &mcp.CallToolRequest{Session: ss, Params: p})
		d.out.Write(directStdioResponse(rawID, res, err))
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

// wait waits until the direct calls have answered.
func (d *stdioDirect) wait() { d.wg.Wait() }

// plainID reports whether a request id is an integer, or a string without
// escapes, which the SDK writes back as it was written.
func plainID(raw json.RawMessage) bool {
	if len(raw) > 0 && raw[0] == '"' {
		return bytes.IndexByte(raw, '\\') < 0 && idKey(raw) != ""
	}
	return directID(raw)
}

// plainRequest reports whether the message line has the members of a
// request, each once, and no other.
func plainRequest(line []byte) bool {
	r, ok := newFieldReader(line)
	if !ok {
		return false
	}
	var seen [4]bool
	for {
		key, more := r.next()
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
		if _, ok := r.value(); !ok {
			return false
		}
	}
}

// plainCallParams reads the params of a tools/call that has a name and
// perhaps arguments, an object, each once, and nothing else.
func plainCallParams(params json.RawMessage) (*mcp.CallToolParamsRaw, bool) {
	r, ok := newFieldReader(params)
	if !ok {
		return nil, false
	}
	p := &mcp.CallToolParamsRaw{}
	var name, args json.RawMessage
	for {
		key, more := r.next()
		if !more {
			break
		}
		v, ok := r.value()
		if !ok {
			return nil, false
		}
		switch {
		case key == "name" && name == nil:
			name = v
		case key == "arguments" && args == nil:
			args = v
		default:
			return nil, false
		}
	}
	if len(name) < 2 || name[0] != '"' || json.Unmarshal(name, &p.Name) != nil {
		return nil, false
	}
	if args != nil {
		if args[0] != '{' {
			return nil, false
		}
		p.Arguments = bytes.Clone(args)
	}
	return p, true
}

// directStdioResponse is the response line to the call id that returned res
// and err, as the SDK writes it for a session before 2026-07-28.
func directStdioResponse(id json.RawMessage, res *mcp.CallToolResult, err error) []byte {
	if err == nil && res != nil && res.InputRequests != nil && (len(res.Content) > 0 || res.StructuredContent != nil) {
		err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "server bug: result has both content and inputRequests"}
	}
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	if err == nil {
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		if res.Content == nil && res.InputRequests == nil {
			r := *res
			r.Content = []mcp.Content{} // never "null"
			res = &r
		}
		b.WriteString(`,"result":`)
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err = enc.Encode(res); err == nil {
			b.Truncate(b.Len() - 1) // Encode's newline
			b.WriteString("}\n")
			return b.Bytes()
		}
		b.Reset()
		b.WriteString(`{"jsonrpc":"2.0","id":`)
		b.Write(id)
	}
	b.WriteString(`,"error":`)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(wireError(err))
	b.Truncate(b.Len() - 1)
	b.WriteString("}\n")
	return b.Bytes()
}

// wireError is the JSON-RPC error the SDK answers a handler's err with.
func wireError(err error) *jsonrpc.Error {
	var we *jsonrpc.Error
	if errors.As(err, &we) && error(we) == err {
		return we
	}
	out := &jsonrpc.Error{Message: err.Error()}
	if we != nil {
		out.Code = we.Code
	}
	return out
}

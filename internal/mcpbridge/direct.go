package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpwire"
	"github.com/modkit/modkit/internal/telemetry"
)

// The direct path: a plain stateless tools/call (protocol 2026-07-28) is
// served by the HTTP handler itself, with the tool's handler NewServer
// gave the SDK, instead of through the SDK's stateless handler, which
// builds a session per request and reads the body several times over.
// Anything out of the plain (another method or revision, a header or
// _meta key the direct path does not know, progress or log notifications
// to send, answers to questions, a tool whose arguments go in headers) is
// left to the SDK, so that both paths answer alike. SDK middleware does
// not see what the direct path serves.

// directCalls are what the direct path serves of one server.
type directCalls struct {
	// handlers are the tools/call handlers of the tools it may serve, by
	// name; a reload changes them under mu (reload.go).
	mu       sync.RWMutex
	handlers map[string]mcp.ToolHandler
	// impl is the server's name and version, which each result's _meta
	// carries.
	impl *mcp.Implementation
	// implJSON is impl encoded, once (plainResult).
	implJSON     []byte
	implJSONOnce sync.Once
	// caps and infos are the client capabilities and names, as written,
	// that were found to decode: a client sends the same ones with every
	// call.
	caps, infos decodedOK
	// metas decodes the calls' _meta.
	metas metaMemo
}

// directTool reports whether calls of a tool with this input schema may
// take the direct path: none of its arguments is mirrored in a header,
// which only the SDK checks.
func directTool(inputSchema []byte) bool {
	return !bytes.Contains(inputSchema, []byte(`"x-mcp-header"`))
}

// directMeta are the _meta keys a direct call may carry.
var directMeta = map[string]bool{
	mcp.MetaKeyProtocolVersion:    true,
	mcp.MetaKeyClientCapabilities: true,
	mcp.MetaKeyClientInfo:         true,
}

// serveDirect serves the stateless tools/call m, which checkBody read,
// in ctx, req's context with the handler's calls context
// (withCallsContext), and reports whether it did; when it did not,
// nothing was written.
func (calls *directCalls) serveDirect(w http.ResponseWriter, req *http.Request, ctx context.Context, m *httpMessage) bool {
	if req.Header.Get(protocolHeader) != multiRoundTrip || req.Header.Get("Mcp-Method") != "tools/call" ||
		!isJSON(req.Header.Get("Content-Type")) || !acceptsBoth(req.Header.Values("Accept")) {
		return false
	}
	for name := range req.Header {
		if strings.HasPrefix(http.CanonicalHeaderKey(name), "Mcp-Param-") {
			return false
		}
	}
	if !m.plain || m.JSONRPC != "2.0" || m.Method != "tools/call" || !directID(m.ID) || !calls.metaOK(m.Params.Meta) {
		return false
	}
	p, ok := plainCallParams(m.params, &calls.metas)
	if !ok {
		return false
	}
	handler, ok := calls.handler(p.Name)
	if !ok || req.Header.Get("Mcp-Name") != p.Name {
		return false
	}
	call := &callRequest{extra: mcp.RequestExtra{Header: req.Header, TokenInfo: tokenInfo(ctx)}}
	call.req = mcp.CallToolRequest{Params: p, Extra: &call.extra}
	res, err := observeDirect(ctx, handler, &call.req)
	if err == nil && res.Meta == nil {
		if b, ok := calls.plainResult(m.ID, res); ok {
			mcpwire.WriteJSON(w, http.StatusOK, b)
			return true
		}
	}
	if err == nil {
		// As the SDK does: the server names itself in the result.
		meta := res.GetMeta()
		if meta == nil {
			meta = map[string]any{}
		}
		if _, ok := meta[mcp.MetaKeyServerInfo]; !ok {
			meta[mcp.MetaKeyServerInfo] = calls.impl
		}
		res.SetMeta(meta)
	}
	writeDirect(w, m.ID, res, err)
	return true
}

// callRequest is a direct call's request to its handler, in one
// allocation.
type callRequest struct {
	req   mcp.CallToolRequest
	extra mcp.RequestExtra
}

// tokenInfo is what the SDK would give a handler of the request with
// context ctx as its TokenInfo: the principal's, behind HTTPOptions.Auth.
func tokenInfo(ctx context.Context) *auth.TokenInfo {
	if p := mcpauth.PrincipalFrom(ctx); p != nil {
		return p.TokenInfo()
	}
	return auth.TokenInfoFromContext(ctx)
}

// directID reports whether a request id is a string, or an integer
// written as one, which the response repeats as written.
func directID(raw json.RawMessage) bool {
	if len(raw) > 0 && raw[0] == '"' {
		return mcpwire.IDKey(raw) != ""
	}
	_, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil
}

// directMetaRawOK reports whether a call's _meta, as written, by key, is
// one the SDK takes as it is: the protocol version of the header, the
// client's capabilities, and perhaps its name, nothing else. It decodes
// the capabilities and the client's name once, straight from their JSON.
func directMetaRawOK(meta map[string]json.RawMessage) bool {
	return (&directCalls{}).metaOK(meta)
}

// metaOK is directMetaRawOK, which decodes capabilities and a client's
// name only the first time they are seen as written.
func (calls *directCalls) metaOK(meta map[string]json.RawMessage) bool {
	if string(meta[mcp.MetaKeyProtocolVersion]) != `"`+multiRoundTrip+`"` {
		return false
	}
	for k := range meta {
		if !directMeta[k] {
			return false
		}
	}
	caps := meta[mcp.MetaKeyClientCapabilities]
	if len(caps) == 0 || caps[0] != '{' || !calls.caps.check(caps, func(b []byte) bool { return json.Unmarshal(b, new(mcp.ClientCapabilities)) == nil }) {
		return false
	}
	info, present := meta[mcp.MetaKeyClientInfo]
	return !present || info[0] == '{' && calls.infos.check(info, func(b []byte) bool { return json.Unmarshal(b, new(mcp.Implementation)) == nil })
}

// maxDecoded is how many values a decodedOK remembers: a few clients'
// worth, so that no client can make it grow.
const maxDecoded = 32

// decodedOK remembers JSON values, as written, that decoded: read without
// a lock, replaced whole when one is added.
type decodedOK struct {
	seen atomic.Pointer[map[string]struct{}]
	mu   sync.Mutex // serializes additions
}

// check reports whether raw decodes, by decode, which it calls only for a
// value not seen before.
func (d *decodedOK) check(raw []byte, decode func([]byte) bool) bool {
	if m := d.seen.Load(); m != nil {
		if _, ok := (*m)[string(raw)]; ok {
			return true
		}
	}
	if !decode(raw) {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	old := d.seen.Load()
	if old != nil && len(*old) >= maxDecoded {
		return true
	}
	m := make(map[string]struct{}, 1+maxDecoded/4)
	if old != nil {
		maps.Copy(m, *old)
	}
	m[string(raw)] = struct{}{}
	d.seen.Store(&m)
	return true
}

// isJSON reports whether a Content-Type is application/json.
func isJSON(contentType string) bool {
	media, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(media), "application/json")
}

// acceptsBoth reports whether Accept names both application/json and
// text/event-stream, as the transport requires of a POST.
func acceptsBoth(values []string) bool {
	var json, stream bool
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			media, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(media)) {
			case "application/json":
				json = true
			case "text/event-stream":
				stream = true
			}
		}
	}
	return json && stream
}

// writeDirect writes the response to the call id: its result, with the
// resultType of protocol 2026-07-28, or its error, with the HTTP status
// that revision gives it.
func writeDirect(w http.ResponseWriter, id json.RawMessage, res *mcp.CallToolResult, err error) {
	if err != nil {
		je := mcpwire.ErrorOf(err)
		status := http.StatusOK
		switch je.Code {
		case jsonrpc.CodeMethodNotFound:
			status = http.StatusNotFound
		case jsonrpc.CodeInvalidParams, mcp.CodeUnsupportedProtocolVersion, mcp.CodeMissingRequiredClientCapabilities:
			status = http.StatusBadRequest
		}
		mcpwire.WriteError(w, status, id, je)
		return
	}
	resultType := "complete"
	if res.InputRequests != nil {
		resultType = "input_required"
	} else if res.Content == nil {
		res.Content = []mcp.Content{} // never "null"
	}
	result, err := json.Marshal(res)
	if err != nil {
		writeDirect(w, id, nil, err)
		return
	}
	// The response, with the resultType of 2026-07-28 as the result's last
	// member: AppendResult's last two bytes close the result and the
	// response.
	b := mcpwire.AppendResult(make([]byte, 0, len(result)+len(id)+64), id, result)
	b = b[:len(b)-2]
	if len(result) > 2 {
		b = append(b, ',')
	}
	b = append(b, `"resultType":"`+resultType+`"}}`...)
	mcpwire.WriteJSON(w, http.StatusOK, b)
}

// plainResult returns the response to the call id that returned res,
// when res is text content and nothing else (no _meta, structured
// content, input requests or request state), encoded without reflection,
// byte for byte as writeDirect encodes it after adding the server's
// _meta.
func (calls *directCalls) plainResult(id json.RawMessage, res *mcp.CallToolResult) ([]byte, bool) {
	if len(res.Content) == 0 {
		return nil, false
	}
	calls.implJSONOnce.Do(func() { calls.implJSON, _ = json.Marshal(calls.impl) })
	shape := resultShape{inputRequired: true, serverInfo: calls.impl, serverInfoJSON: calls.implJSON}
	n := len(id) + len(calls.implJSON) + 128
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && t != nil {
			n += len(t.Text) + 32
		}
	}
	b := make([]byte, 0, n)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b, ok := shape.appendText(b, res)
	if !ok {
		return nil, false
	}
	return append(b, '}'), true
}

// observeDirect calls handler as the SDK's receiving middleware would: a
// span and a duration for the request when telemetry is on.
func observeDirect(ctx context.Context, handler mcp.ToolHandler, call *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if !telemetry.Tracing() && !telemetry.Metering() {
		return handler(ctx, call)
	}
	res, err := observe(func(ctx context.Context, _ string, r mcp.Request) (mcp.Result, error) {
		return handler(ctx, r.(*mcp.CallToolRequest))
	})(ctx, "tools/call", call)
	r, _ := res.(*mcp.CallToolResult)
	return r, err
}

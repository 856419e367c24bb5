package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/telemetry"
)

// observe is the receiving middleware that makes each MCP request a span
// (OpenTelemetry's MCP conventions, its parent from _meta or the HTTP
// headers) and records its duration as mcp.server.operation.duration.
// With tracing and metrics off it only calls next.
func observe(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !telemetry.Tracing() && !telemetry.Metering() {
			return next(ctx, method, req)
		}
		start := time.Now()
		var tool string
		if c, ok := req.(*mcp.CallToolRequest); ok && c.Params != nil {
			tool = c.Params.Name
		}
		var meta map[string]any
		// A notification without params holds a typed nil.
		if p := req.GetParams(); p != nil && !reflect.ValueOf(p).IsNil() {
			meta = p.GetMeta()
		}
		var session string
		if s, ok := req.GetSession().(*mcp.ServerSession); ok && s != nil {
			session = s.ID()
		}
		var header map[string][]string
		if e := req.GetExtra(); e != nil {
			header = e.Header
		}
		ctx, span := telemetry.StartRequest(ctx, method, tool, session, http.Header(header).Get(requestIDHeader), meta, header)
		defer span.End()
		res, err := next(ctx, method, req)
		errType := ""
		var werr *jsonrpc.Error
		switch {
		case errors.As(err, &werr):
			errType = strconv.FormatInt(werr.Code, 10)
		case err != nil:
			errType = "_OTHER"
		default:
			if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
				errType = "tool_error"
			}
		}
		if errType != "" {
			msg := errType
			if err != nil {
				msg = err.Error()
			}
			span.Fail(errType, msg)
		}
		telemetry.RecordOperation(method, tool, errType, time.Since(start))
		return res, err
	}
}

// requestIDHeader carries a request's JSON-RPC id from the HTTP handler,
// which parses the body, to observe, which the SDK does not tell it: the
// SDK hands the request's headers to the handlers. Over stdio,
// tagRequestIDs puts it in the same place.
const requestIDHeader = "Modkit-Jsonrpc-Request-Id"

// tagRequestID sets the request's JSON-RPC id, as the span attribute
// jsonrpc.request.id writes it (a string unquoted, a number as sent), in
// h when the process traces; a client's own header of the name is dropped.
func tagRequestID(h http.Header, id json.RawMessage) {
	if !telemetry.Tracing() {
		return
	}
	h.Del(requestIDHeader)
	id = bytes.TrimSpace(id)
	switch {
	case len(id) == 0 || string(id) == "null":
	case id[0] == '"':
		var s string
		if json.Unmarshal(id, &s) == nil {
			h.Set(requestIDHeader, s)
		}
	default:
		h.Set(requestIDHeader, string(id))
	}
}

// tagRequestIDs returns t, whose connection, when the process traces,
// gives each request it reads the header requestIDHeader with its JSON-RPC
// id, as tagRequestID does over HTTP: stdio has no headers, and the SDK
// hands handlers a request's extra information, headers included, but
// not its id. With tracing off it returns t itself.
//
// The wrapper hides one optional method of the SDK's stdio connection,
// which the SDK uses only to refuse JSON-RPC batches of a late protocol
// version: ServeStdio refuses every batch before the SDK reads it.
func tagRequestIDs(t mcp.Transport) mcp.Transport {
	if !telemetry.Tracing() {
		return t
	}
	return idTransport{t}
}

type idTransport struct{ mcp.Transport }

func (t idTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return idConnection{c}, nil
}

type idConnection struct{ mcp.Connection }

func (c idConnection) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && req.Extra == nil && req.ID.IsValid() && telemetry.Tracing() {
		var id string
		switch v := req.ID.Raw().(type) {
		case string:
			id = v
		case int64:
			id = strconv.FormatInt(v, 10)
		}
		if id != "" {
			req.Extra = &mcp.RequestExtra{Header: http.Header{requestIDHeader: {id}}}
		}
	}
	return msg, err
}

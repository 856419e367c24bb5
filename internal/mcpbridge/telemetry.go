package mcpbridge

import (
	"context"
	"errors"
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
		ctx, span := telemetry.StartRequest(ctx, method, tool, session, meta, header)
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

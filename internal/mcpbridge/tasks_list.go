package mcpbridge

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolExecution is a listed tool's execution member (MCP 2025-11-25's
// ToolExecution).
type toolExecution struct {
	TaskSupport string `json:"taskSupport"`
}

// listedTool is a tool as tools/list sends it to a client of 2025-11-25 or
// earlier: the SDK's, with its execution member.
type listedTool struct {
	*mcp.Tool
	Execution toolExecution `json:"execution"`
}

// listedTools is a tools/list result whose tools carry their execution
// member; every other member, and the methods the SDK calls on a result,
// are the SDK's result's.
type listedTools struct {
	*mcp.ListToolsResult
	Tools []listedTool `json:"tools"`
}

// listTaskSupport is the SDK middleware that says, in tools/list, each
// tool's task support in the shape of the client's revision. Revision
// 2025-11-25 has execution.taskSupport: a session with that revision's
// tasks (tasks_core.go) is told each tool's (required or optional for a
// tool that declares it, forbidden otherwise); a session of an earlier
// revision, or one over a stdio that serves no tasks, is told forbidden
// for every tool, as it calls every tool as a plain call. Revision
// 2026-07-28 removed the member (its tasks extension has the server
// decide per call, and the official TypeScript SDK strips it from that
// revision's lists): the list is the SDK's, and server/discover declares
// the extension. It must be the outermost middleware: the others read
// the SDK's result.
func (tr *taskRunner) listTaskSupport(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		lr, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok || requestVersion(req) >= sessionless {
			return res, err
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		out := &listedTools{ListToolsResult: lr, Tools: make([]listedTool, len(lr.Tools))}
		for i, t := range lr.Tools {
			out.Tools[i] = listedTool{Tool: t, Execution: toolExecution{TaskSupport: tr.taskSupportOf(ss, t.Name)}}
		}
		return out, nil
	}
}

// requestVersion is the protocol revision of req: its _meta's, or its
// session's.
func requestVersion(req mcp.Request) string {
	var meta map[string]any
	if p := req.GetParams(); p != nil {
		meta = p.GetMeta()
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	return protocolVersion(meta, ss)
}

// overStdio reports whether the server serves tasks over stdio: without
// audit, whose records of stdio requests the SDK's middleware makes. Which
// tools support tasks is the served generation's, read per call, as a
// reload may change it.
func (tr *taskRunner) overStdio() bool {
	return tr.br.opts.Audit == nil
}

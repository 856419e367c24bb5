package mcpbridge

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Task support of a tool, as tools/list says it in execution.taskSupport.
const (
	taskForbidden = "forbidden"
	taskOptional  = "optional"
	taskRequired  = "required"
)

// toolExecution is a listed tool's execution member (MCP 2025-11-25's
// ToolExecution; the tasks extension of 2026-07-28 defines no member of
// its own, and its clients read the same one).
type toolExecution struct {
	TaskSupport string `json:"taskSupport"`
}

// listedTool is a tool as tools/list sends it: the SDK's, with its
// execution member.
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
// tool's task support to the client asking: the manifest's (optional or
// required) to a client that can get tasks here, a request of 2026-07-28
// (getsTasks); forbidden to any other, which calls every tool as a plain
// call, and for a tool without task support. It must be the
// outermost middleware: the others read the SDK's result.
func (tr *taskRunner) listTaskSupport(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		lr, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok {
			return res, err
		}
		tasks := tr.getsTasks(req)
		out := &listedTools{ListToolsResult: lr, Tools: make([]listedTool, len(lr.Tools))}
		for i, t := range lr.Tools {
			support := taskForbidden
			if tt, ok := tr.tools[t.Name]; ok && tasks {
				support = taskSupportOf(string(tt.Task))
			}
			out.Tools[i] = listedTool{Tool: t, Execution: toolExecution{TaskSupport: support}}
		}
		return out, nil
	}
}

// getsTasks reports whether the client of req can have its calls run as
// tasks: a request of 2026-07-28 (or later), over streamable HTTP, or over
// stdio when the server serves tasks there.
func (tr *taskRunner) getsTasks(req mcp.Request) bool {
	if extra := req.GetExtra(); (extra == nil || extra.Header == nil) && !tr.overStdio() {
		return false
	}
	var meta map[string]any
	if p := req.GetParams(); p != nil {
		meta = p.GetMeta()
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	return protocolVersion(meta, ss) >= sessionless
}

// overStdio reports whether the server serves tasks over stdio: with
// tools that support them, and without audit, whose records of stdio
// requests the SDK's middleware makes.
func (tr *taskRunner) overStdio() bool {
	return len(tr.tools) > 0 && tr.br.opts.Audit == nil
}

// taskSupportOf is the taskSupport of a manifest's task declaration.
func taskSupportOf(task string) string {
	switch task {
	case "required":
		return taskRequired
	case "optional":
		return taskOptional
	}
	return taskForbidden
}

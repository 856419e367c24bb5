package mcpbridge

import (
	"context"
	"runtime"
	"sync"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// levelSessions holds the sessions whose client set a log level with
// logging/setLevel: until it does, the SDK sends a session none of a
// call's log entries, so the call need not stream them from its mod.
// Entries go when their session is collected.
var levelSessions sync.Map // weak.Pointer[mcp.ServerSession] → struct{}

// noteLogLevel is middleware that notes the sessions whose client set a
// log level.
func noteLogLevel(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "logging/setLevel" || err != nil {
			return res, err
		}
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
			key := weak.Make(ss)
			if _, loaded := levelSessions.LoadOrStore(key, struct{}{}); !loaded {
				runtime.AddCleanup(ss, func(k weak.Pointer[mcp.ServerSession]) { levelSessions.Delete(k) }, key)
			}
		}
		return res, err
	}
}

// levelSet reports whether the client of ss set a log level.
func levelSet(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	_, ok := levelSessions.Load(weak.Make(ss))
	return ok
}

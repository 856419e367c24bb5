package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/taskstore"
)

// stdioCore is what a stdio connection keeps for its session's tasks of
// 2025-11-25 (tasks_core.go): the session, and the notifications of the
// tasks it created.
type stdioCore struct {
	// session is the SDK's session, set when Connect returned (nil if it
	// failed); known is closed then. The SDK may read lines before
	// Connect returns: a request read then waits for it.
	session atomic.Pointer[mcp.ServerSession]
	known   chan struct{}

	notes   context.Context // the notifications' context: stop cancels it
	cancel  context.CancelFunc
	notesWG sync.WaitGroup
}

func (c *stdioCore) init(ctx context.Context) {
	c.known = make(chan struct{})
	c.notes, c.cancel = context.WithCancel(ctx)
}

// connected records the session Connect returned, nil if it failed.
func (c *stdioCore) connected(ss *mcp.ServerSession) {
	c.session.Store(ss)
	close(c.known)
}

// stop ends the notifications, and waits for their goroutines.
func (c *stdioCore) stop() {
	c.cancel()
	c.notesWG.Wait()
}

// serveCore answers the request method of the session, whose id is id
// (canonical) and rawID (as written), when it is one of 2025-11-25's
// tasks, and reports whether it took it; when it did not, nothing was
// done. The answer comes in the background, as the extension's do. The
// request passed mayServeCore.
func (s *stdioTasks) serveCore(method, id string, rawID, params json.RawMessage) bool {
	<-s.core.known
	ss := s.core.session.Load()
	if !s.tr.servesCoreTasks(ss) {
		return false
	}
	serve, ok := s.tr.takeCore(&coreSession{ss: ss, follow: s.follow}, method, params)
	if !ok {
		return false
	}
	s.run(id, serve, bytes.Clone(rawID))
	return true
}

// follow sends the client notifications/tasks/status as task t changes,
// until it ends or the connection does.
func (s *stdioTasks) follow(t *taskstore.Task) {
	s.core.notesWG.Go(func() {
		s.tr.notifyStatus(s.core.notes, t, func(method string, params any) {
			line, err := json.Marshal(struct {
				JSONRPC string `json:"jsonrpc"`
				Method  string `json:"method"`
				Params  any    `json:"params"`
			}{"2.0", method, params})
			if err == nil {
				s.out.Write(append(line, '\n'))
			}
		})
	})
}

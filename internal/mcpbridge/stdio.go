package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one MCP session on r and w, newline-delimited JSON-RPC,
// until the client closes r or ctx is done. When r ends, every request
// already read is answered before the session closes, so that a client may
// write its requests and close its end at once (modhost mcp < requests.jsonl);
// the SDK alone would drop them.
func ServeStdio(ctx context.Context, srv *mcp.Server, r io.Reader, w io.Writer) error {
	b := &balance{}
	b.cond = sync.NewCond(&b.mu)
	gate := &eofGate{r: r, b: b}
	t := &mcp.IOTransport{Reader: gate, Writer: &responseCounter{w: w, b: b}}
	stop := context.AfterFunc(ctx, func() { b.abort() })
	defer stop()
	err := srv.Run(ctx, t)
	if err == nil || errors.Is(err, io.EOF) || ctx.Err() != nil {
		return nil
	}
	return err
}

// balance counts the requests read and the responses written.
type balance struct {
	mu        sync.Mutex
	cond      *sync.Cond
	requests  int
	responses int
	aborted   bool
}

func (b *balance) add(requests, responses int) {
	if requests == 0 && responses == 0 {
		return
	}
	b.mu.Lock()
	b.requests += requests
	b.responses += responses
	b.mu.Unlock()
	b.cond.Broadcast()
}

// wait blocks until every request read has its response, or abort.
func (b *balance) wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.responses < b.requests && !b.aborted {
		b.cond.Wait()
	}
}

func (b *balance) abort() {
	b.mu.Lock()
	b.aborted = true
	b.mu.Unlock()
	b.cond.Broadcast()
}

// eofGate passes r through, counting the requests in it, and holds back its
// end until they are all answered.
type eofGate struct {
	r       io.Reader
	b       *balance
	partial []byte // the unterminated last line read so far
}

func (g *eofGate) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if n > 0 {
		g.b.add(g.countLines(p[:n]), 0)
	}
	if errors.Is(err, io.EOF) {
		if len(g.partial) > 0 {
			g.b.add(requestCount(g.partial), 0)
			g.partial = nil
		}
		g.b.wait()
	}
	return n, err
}

// Close ends the session: a Read waiting for answers returns.
func (g *eofGate) Close() error {
	g.b.abort()
	if c, ok := g.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// countLines counts the requests in the complete lines of data, keeping an
// unterminated last line for the next call.
func (g *eofGate) countLines(data []byte) int {
	n := 0
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			g.partial = append(g.partial, data...)
			return n
		}
		line := data[:i]
		if len(g.partial) > 0 {
			line = append(g.partial, line...)
			g.partial = g.partial[:0]
		}
		n += requestCount(line)
		data = data[i+1:]
	}
}

// requestCount returns how many requests (messages with a method and an id)
// one line holds: a message or a batch of them.
func requestCount(line []byte) int {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return 0
	}
	type message struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	isRequest := func(m message) bool {
		return m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null"
	}
	if line[0] == '[' {
		var batch []message
		if json.Unmarshal(line, &batch) != nil {
			return 0
		}
		n := 0
		for _, m := range batch {
			if isRequest(m) {
				n++
			}
		}
		return n
	}
	var m message
	if json.Unmarshal(line, &m) != nil || !isRequest(m) {
		// The SDK answers a malformed line with an error or ends the
		// session; either way nothing is left to wait for.
		return 0
	}
	return 1
}

// responseCounter passes writes to w, counting the responses among them.
// The SDK writes one message, or one batch, per Write.
type responseCounter struct {
	w io.Writer
	b *balance
}

func (c *responseCounter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.b.add(0, responseCount(p))
	return n, err
}

func (c *responseCounter) Close() error { return nil }

// responseCount returns how many responses one written message or batch
// holds. It reads only the top-level keys of a message up to the first of
// "result", "error" or "method", not the (possibly large) result.
func responseCount(data []byte) int {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return 0
	}
	if data[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(data, &batch) != nil {
			return 0
		}
		n := 0
		for _, m := range batch {
			n += responseCount(m)
		}
		return n
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return 0
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return 0
		}
		switch key {
		case "result", "error":
			return 1
		case "method":
			return 0
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return 0
		}
	}
	return 0
}

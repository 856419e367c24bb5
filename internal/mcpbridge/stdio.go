package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one MCP session on r and w, newline-delimited JSON-RPC,
// until the client closes r or ctx is done. It does two things the SDK's
// stdio transport does not:
//
//   - when r ends, every request already read is answered before the session
//     closes, so that a client may write its requests and close its end at
//     once (modhost mcp < requests.jsonl);
//   - a request the client cancelled with notifications/cancelled gets no
//     response, as the MCP cancellation utility asks; the handler's context
//     is cancelled as usual.
func ServeStdio(ctx context.Context, srv *mcp.Server, r io.Reader, w io.Writer) error {
	p := newPending()
	t := &mcp.IOTransport{Reader: &inputWatcher{r: r, p: p}, Writer: &outputFilter{w: w, p: p}}
	stop := context.AfterFunc(ctx, p.abort)
	defer stop()
	err := srv.Run(ctx, t)
	if err == nil || errors.Is(err, io.EOF) || ctx.Err() != nil {
		return nil
	}
	return err
}

// pending tracks the requests read and not yet answered, by id.
type pending struct {
	mu        sync.Mutex
	cond      *sync.Cond
	open      map[string]bool // id -> cancelled by the client
	abortedAt bool
}

func newPending() *pending {
	p := &pending{open: map[string]bool{}}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// request records a request read.
func (p *pending) request(id string) {
	p.mu.Lock()
	p.open[id] = false
	p.mu.Unlock()
}

// cancel records that the client cancelled a request still open.
func (p *pending) cancel(id string) {
	p.mu.Lock()
	if _, ok := p.open[id]; ok {
		p.open[id] = true
	}
	p.mu.Unlock()
}

// answered records the response to id and reports whether to drop it
// because the client cancelled the request.
func (p *pending) answered(id string) (drop bool) {
	p.mu.Lock()
	cancelled, ok := p.open[id]
	delete(p.open, id)
	empty := len(p.open) == 0
	p.mu.Unlock()
	if empty {
		p.cond.Broadcast()
	}
	return ok && cancelled
}

// wait blocks until every open request is answered, or abort.
func (p *pending) wait() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.open) > 0 && !p.abortedAt {
		p.cond.Wait()
	}
}

func (p *pending) abort() {
	p.mu.Lock()
	p.abortedAt = true
	p.mu.Unlock()
	p.cond.Broadcast()
}

// inputWatcher passes r through, noting the requests and cancellations in
// it, and holds back its end until the requests are answered.
type inputWatcher struct {
	r       io.Reader
	p       *pending
	partial []byte // the unterminated last line read so far
}

func (in *inputWatcher) Read(b []byte) (int, error) {
	n, err := in.r.Read(b)
	if n > 0 {
		in.scan(b[:n])
	}
	if errors.Is(err, io.EOF) {
		if len(in.partial) > 0 {
			in.note(in.partial)
			in.partial = nil
		}
		in.p.wait()
	}
	return n, err
}

// Close ends the session: a Read waiting for answers returns.
func (in *inputWatcher) Close() error {
	in.p.abort()
	if c, ok := in.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// scan notes the complete lines of data, keeping an unterminated last line
// for the next call.
func (in *inputWatcher) scan(data []byte) {
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			in.partial = append(in.partial, data...)
			return
		}
		line := data[:i]
		if len(in.partial) > 0 {
			line = append(in.partial, line...)
			in.partial = in.partial[:0]
		}
		in.note(line)
		data = data[i+1:]
	}
}

// inMessage is what the watcher reads of a client's message.
type inMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// note records the requests and cancellations in one line: a message or a
// batch of them. Lines that are not JSON-RPC are the SDK's to reject.
func (in *inputWatcher) note(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	var msgs []inMessage
	if line[0] == '[' {
		if json.Unmarshal(line, &msgs) != nil {
			return
		}
	} else {
		var m inMessage
		if json.Unmarshal(line, &m) != nil {
			return
		}
		msgs = []inMessage{m}
	}
	for _, m := range msgs {
		switch id := idKey(m.ID); {
		case m.Method == "notifications/cancelled":
			if rid := idKey(m.Params.RequestID); rid != "" {
				in.p.cancel(rid)
			}
		case m.Method != "" && id != "":
			in.p.request(id)
		}
	}
}

// idKey returns a JSON-RPC id in a canonical form, or "" for none: numbers
// as integers where they are integral, as the SDK writes them back.
func idKey(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return strconv.Quote(s)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return ""
	}
	if f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// outputFilter passes the SDK's writes to w, noting the responses, and
// drops the responses to requests the client cancelled. The SDK writes one
// message, or one batch, per Write.
type outputFilter struct {
	w io.Writer
	p *pending
}

func (out *outputFilter) Write(b []byte) (int, error) {
	if id, ok := responseID(b); ok && out.p.answered(id) {
		return len(b), nil
	}
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) {
		var batch []json.RawMessage
		if json.Unmarshal(b, &batch) == nil {
			for _, m := range batch {
				if id, ok := responseID(m); ok {
					out.p.answered(id)
				}
			}
		}
	}
	return out.w.Write(b)
}

func (out *outputFilter) Close() error { return nil }

// responseID reports whether data is one response message, and its id. It
// reads only the top-level keys up to the first of "result", "error" or
// "method", not the (possibly large) result.
func responseID(data []byte) (string, bool) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return "", false
	}
	id := ""
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return "", false
		}
		switch key {
		case "result", "error":
			return id, id != ""
		case "method":
			return "", false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return "", false
		}
		if key == "id" {
			id = idKey(v)
		}
	}
	return "", false
}

package mcpbridge

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/mcpwire"
)

// echo quotes a value a client sent, cut to limits.MaxEcho bytes: an error
// never sends a client back more than that of what it wrote.
func echo(s string) string {
	return strconv.Quote(limits.Cut(s, limits.MaxEcho))
}

// sdkWriter stands between the SDK's streamable handlers and the client,
// so that what the SDK answers keeps the rules this package's own
// answers keep: every error is a JSON-RPC error (the SDK answers some in
// plain text: a GET without a session, a session not found), and an
// error's message and data quote at most limits.MaxEcho bytes of any one
// value the client sent (the SDK quotes unknown names and URIs whole).
// The SDK writes a JSON response, or one server-sent event, per Write.
type sdkWriter struct {
	http.ResponseWriter
	plain bool // the SDK answered an HTTP error in plain text
}

func (s *sdkWriter) WriteHeader(code int) {
	h := s.Header()
	if code >= 400 && strings.HasPrefix(h.Get("Content-Type"), "text/plain") {
		s.plain = true
		h.Set("Content-Type", "application/json")
		h.Del("Content-Length")
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *sdkWriter) Write(b []byte) (int, error) {
	if s.plain {
		data := mcpwire.AppendError(nil, nil, &jsonrpc.Error{Code: mcpwire.CodeInvalidRequest, Message: limits.Cut(strings.TrimSpace(string(b)), limits.MaxProblemBytes)})
		if _, err := s.ResponseWriter.Write(data); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	if cut, ok := cutErrorEcho(b); ok {
		if _, err := s.ResponseWriter.Write(cut); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	return s.ResponseWriter.Write(b)
}

// Flush and Unwrap let the SDK flush each event.
func (s *sdkWriter) Flush() {
	if fl, ok := s.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

func (s *sdkWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// errorProbe is how far into a response its "error" member is looked
// for: past "data: ", the jsonrpc member and an id, which the handler
// bounds (mcpwire.MaxIDBytes).
const errorProbe = 64 + mcpwire.MaxIDBytes

// cutErrorEcho returns b, a JSON-RPC response or a server-sent event
// carrying one, with the quotes of its error cut (cutQuotes) and every
// string of its error's data cut to limits.MaxEcho bytes; ok is false when
// b is no error or has nothing to cut.
func cutErrorEcho(b []byte) (out []byte, ok bool) {
	start, end := 0, len(b)
	if len(b) == 0 || b[0] != '{' {
		i := bytes.Index(b, []byte("data: "))
		if i < 0 || i > 0 && b[i-1] != '\n' {
			return nil, false
		}
		start = i + len("data: ")
		end = start + bytes.IndexByte(b[start:], '\n')
		if end < start {
			end = len(b)
		}
	}
	payload := b[start:end]
	if !bytes.Contains(payload[:min(len(payload), errorProbe)], []byte(`"error":`)) {
		return nil, false
	}
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   *jsonrpc.Error  `json:"error"`
	}
	if json.Unmarshal(payload, &msg) != nil || msg.Error == nil || msg.Result != nil {
		return nil, false
	}
	text := cutQuotes(msg.Error.Message)
	data, dataCut := cutStrings(msg.Error.Data)
	if text == msg.Error.Message && !dataCut {
		return nil, false
	}
	msg.Error.Message, msg.Error.Data = text, data
	body := mcpwire.AppendError(nil, msg.ID, msg.Error)
	out = make([]byte, 0, start+len(body)+len(b)-end)
	out = append(out, b[:start]...)
	out = append(out, body...)
	return append(out, b[end:]...), true
}

// cutQuotes cuts each quoted part of an error's message ("…" as Go's %q
// writes it, or '…') to limits.MaxEcho bytes, and the message to
// limits.MaxProblemBytes: the parts an error quotes are what a client
// sent.
func cutQuotes(msg string) string {
	var b strings.Builder
	rest := msg
	changed := false
	for {
		i := strings.IndexAny(rest, `"'`)
		if i < 0 {
			break
		}
		q := rest[i]
		b.WriteString(rest[:i+1])
		rest = rest[i+1:]
		j := closingQuote(rest, q)
		inner := rest[:j]
		if len(inner) > limits.MaxEcho {
			inner = limits.Cut(inner, limits.MaxEcho)
			// A cut may leave a backslash that escaped the quote after it.
			if n := len(inner) - len("…"); n > 0 && inner[n-1] == '\\' {
				inner = inner[:n-1] + "…"
			}
			changed = true
		}
		b.WriteString(inner)
		if j == len(rest) {
			rest = ""
			break
		}
		b.WriteByte(q)
		rest = rest[j+1:]
	}
	if !changed && len(msg) <= limits.MaxProblemBytes {
		return msg
	}
	b.WriteString(rest)
	return limits.Cut(b.String(), limits.MaxProblemBytes)
}

// closingQuote returns the index in s of the quote q that closes a quoted
// part (a double quote escaped by a backslash does not), or len(s).
func closingQuote(s string, q byte) int {
	for i := 0; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q:
			return i
		}
	}
	return len(s)
}

// cutStrings returns the JSON value data with every string in it cut to
// limits.MaxEcho bytes, and whether any was.
func cutStrings(data json.RawMessage) (json.RawMessage, bool) {
	if len(data) <= limits.MaxEcho {
		return data, false
	}
	var v any
	if json.Unmarshal(data, &v) != nil {
		return nil, true
	}
	cut := false
	var walk func(any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case string:
			if len(v) > limits.MaxEcho {
				cut = true
				return limits.Cut(v, limits.MaxEcho)
			}
		case []any:
			for i := range v {
				v[i] = walk(v[i])
			}
		case map[string]any:
			for k, e := range v {
				if len(k) > limits.MaxEcho {
					delete(v, k)
					k, cut = limits.Cut(k, limits.MaxEcho), true
				}
				v[k] = walk(e)
			}
		}
		return v
	}
	v = walk(v)
	if !cut {
		return data, false
	}
	out, _ := json.Marshal(v)
	return out, true
}

package mcpwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// NewError returns the JSON-RPC error of code with message msg.
func NewError(code int64, msg string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: code, Message: msg}
}

// ErrorOf returns err as the JSON-RPC error that answers it: the one err
// is or wraps, else an internal error with err's text.
func ErrorOf(err error) *jsonrpc.Error {
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		je = &jsonrpc.Error{Code: CodeInternalError, Message: err.Error()}
	}
	return je
}

// HandlerError is the JSON-RPC error the SDK answers a request handler's
// err with: err itself when it is one; else err's text, with the code of a
// JSON-RPC error err wraps (0 when none).
func HandlerError(err error) *jsonrpc.Error {
	var we *jsonrpc.Error
	if errors.As(err, &we) && error(we) == err {
		return we
	}
	out := &jsonrpc.Error{Message: err.Error()}
	if we != nil {
		out.Code = we.Code
	}
	return out
}

// AppendResult appends to dst the response to the request id (null when
// empty) that carries result. Both are JSON already, written as they are.
func AppendResult(dst []byte, id, result json.RawMessage) []byte {
	if len(id) == 0 {
		id = null
	}
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = append(dst, id...)
	dst = append(dst, `,"result":`...)
	dst = append(dst, result...)
	return append(dst, '}')
}

// AppendError appends to dst the response to the request id that carries
// e; its id is null when id is none or not a valid id.
func AppendError(dst []byte, id json.RawMessage, e *jsonrpc.Error) []byte {
	if IDKey(id) == "" {
		id = null
	}
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = append(dst, id...)
	dst = append(dst, `,"error":`...)
	dst = appendJSON(dst, e)
	return append(dst, '}')
}

// AppendNotification appends to dst the notification of method with
// params, JSON already (null when empty).
func AppendNotification(dst []byte, method string, params json.RawMessage) []byte {
	if len(params) == 0 {
		params = null
	}
	dst = append(dst, `{"jsonrpc":"2.0","method":`...)
	dst = appendJSON(dst, method)
	dst = append(dst, `,"params":`...)
	dst = append(dst, params...)
	return append(dst, '}')
}

var null = json.RawMessage("null")

// appendJSON appends v encoded as the SDK encodes it: without escaping
// HTML's characters.
func appendJSON(dst []byte, v any) []byte {
	b := bytes.NewBuffer(dst)
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(v) // strings and jsonrpc.Error: it cannot fail
	out := b.Bytes()
	return out[:len(out)-1] // Encode's newline
}

// WriteJSON answers over HTTP with status and the JSON body data, with
// its Content-Length: a response of more than 2 KB would otherwise be
// chunked, which costs a proxy in front more than a length does.
func WriteJSON(w http.ResponseWriter, status int, data []byte) {
	h := w.Header()
	// Set by key, as written: Header.Set would canonicalize the names and
	// allocate each value's slice.
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(data))}
	w.WriteHeader(status)
	w.Write(data)
}

// jsonContentType is the Content-Type of every JSON response: net/http
// only reads it.
var jsonContentType = []string{"application/json"}

// WriteResult answers the request id over HTTP with result (200), or,
// when err is not nil, with the JSON-RPC error ErrorOf gives it (200).
func WriteResult(w http.ResponseWriter, id, result json.RawMessage, err error) {
	if err != nil {
		WriteError(w, http.StatusOK, id, err)
		return
	}
	WriteJSON(w, http.StatusOK, AppendResult(make([]byte, 0, len(id)+len(result)+36), id, result))
}

// WriteError answers the request id over HTTP with status and the
// JSON-RPC error ErrorOf gives err.
func WriteError(w http.ResponseWriter, status int, id json.RawMessage, err error) {
	WriteJSON(w, status, AppendError(nil, id, ErrorOf(err)))
}

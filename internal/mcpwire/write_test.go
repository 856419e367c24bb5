package mcpwire

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestAppendError(t *testing.T) {
	for _, tt := range []struct {
		id   string
		e    *jsonrpc.Error
		want string
	}{
		{`7`, NewError(CodeInvalidParams, "no <tool> & no name"), `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"no <tool> & no name"}}`},
		{`"a"`, &jsonrpc.Error{Code: -32022, Message: "m", Data: json.RawMessage(`{"supported":["x"]}`)}, `{"jsonrpc":"2.0","id":"a","error":{"code":-32022,"message":"m","data":{"supported":["x"]}}}`},
		{``, NewError(CodeParseError, "p"), `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"p"}}`},
		{`{"no":1}`, NewError(CodeInvalidRequest, "r"), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"r"}}`},
	} {
		if got := string(AppendError(nil, json.RawMessage(tt.id), tt.e)); got != tt.want {
			t.Errorf("AppendError(%s): got %s, want %s", tt.id, got, tt.want)
		}
	}
}

func TestAppendResultAndNotification(t *testing.T) {
	if got, want := string(AppendResult([]byte("x"), json.RawMessage(`"q"`), json.RawMessage(`{"a":1}`))), `x{"jsonrpc":"2.0","id":"q","result":{"a":1}}`; got != want {
		t.Errorf("AppendResult: got %s, want %s", got, want)
	}
	if got, want := string(AppendResult(nil, nil, json.RawMessage(`{}`))), `{"jsonrpc":"2.0","id":null,"result":{}}`; got != want {
		t.Errorf("AppendResult without id: got %s, want %s", got, want)
	}
	if got, want := string(AppendNotification(nil, "notifications/tasks", json.RawMessage(`{"taskId":"t"}`))), `{"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"t"}}`; got != want {
		t.Errorf("AppendNotification: got %s, want %s", got, want)
	}
}

func TestErrors(t *testing.T) {
	je := NewError(CodeInvalidParams, "bad")
	wrapped := fmt.Errorf("call: %w", je)
	for _, tt := range []struct {
		name      string
		got, want *jsonrpc.Error
	}{
		{"ErrorOf of a JSON-RPC error", ErrorOf(je), je},
		{"ErrorOf of one wrapped", ErrorOf(wrapped), je},
		{"ErrorOf of another", ErrorOf(errors.New("boom")), NewError(CodeInternalError, "boom")},
		{"HandlerError of a JSON-RPC error", HandlerError(je), je},
		{"HandlerError of one wrapped", HandlerError(wrapped), NewError(CodeInvalidParams, "call: bad")},
		{"HandlerError of another", HandlerError(errors.New("boom")), NewError(0, "boom")},
	} {
		if tt.got.Code != tt.want.Code || tt.got.Message != tt.want.Message {
			t.Errorf("%s: got %d %q, want %d %q", tt.name, tt.got.Code, tt.got.Message, tt.want.Code, tt.want.Message)
		}
	}
}

func TestWriteResult(t *testing.T) {
	w := httptest.NewRecorder()
	WriteResult(w, json.RawMessage(`1`), nil, NewError(CodeInvalidParams, "bad"))
	if got, want := w.Body.String(), `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`; w.Code != 200 || got != want {
		t.Errorf("WriteResult of an error: got %d %s, want 200 %s", w.Code, got, want)
	}
	w = httptest.NewRecorder()
	WriteResult(w, json.RawMessage(`1`), json.RawMessage(`{}`), nil)
	if w.Header().Get("Content-Type") != "application/json" || w.Header().Get("Content-Length") != fmt.Sprint(w.Body.Len()) {
		t.Errorf("WriteResult: got headers %v, want application/json and the body's length", w.Header())
	}
}

func TestIDKey(t *testing.T) {
	for raw, want := range map[string]string{`1`: "1", `1.9`: "1", `"a"`: `"a"`, `"\u0061"`: `"a"`, ` 2 `: "2", `null`: "", ``: "", `true`: "", `{}`: ""} {
		if got := IDKey(json.RawMessage(raw)); got != want {
			t.Errorf("IDKey(%s): got %q, want %q", raw, got, want)
		}
	}
}

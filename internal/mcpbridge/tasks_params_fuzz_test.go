package mcpbridge

import (
	"bytes"
	"encoding/json"
	"testing"
)

// taskParamsSeeds are params of the tasks methods and of tools/call, in
// the shapes the readers take and in those they leave to json.Unmarshal.
var taskParamsSeeds = []string{
	`{"taskId":"t1"}`,
	`{"taskId":"t1","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`,
	`{"taskId":"t\u0031"}`, `{"taskid":"t1"}`, `{"taskId":"a","taskId":"b"}`, `{"taskId":7}`,
	`{"taskId":"t1","inputResponses":{"q":{"action":"accept"}}}`, `{}`, `[]`, `{"taskId":null}`,
	`{"name":"echo","arguments":{"a":1},"_meta":{}}`, `{"name":"echo"}`, `{"name":"echo","arguments":null}`,
	`{"name":"e\"cho"}`, `{"Name":"echo"}`, `{"name":"echo","requestState":"s"}`, `{"name":"a","name":"b"}`,
	`{"name":"echo","arguments":[1]}`, `{"name":1}`,
}

// FuzzPlainTaskID: when plainTaskID reads params, it reads the taskId
// json.Unmarshal into taskParams reads, and only where there are no
// inputResponses to decode.
func FuzzPlainTaskID(f *testing.F) {
	for _, s := range taskParamsSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, params []byte) {
		if !json.Valid(params) {
			return
		}
		id, ok := plainTaskID(params)
		if !ok {
			return
		}
		var want taskParams
		if err := json.Unmarshal(params, &want); err != nil {
			t.Fatalf("%s: read taskId %q; json.Unmarshal: %v", params, id, err)
		}
		if id != want.TaskID || want.InputResponses != nil {
			t.Fatalf("%s: got taskId %q, want json.Unmarshal's %q (inputResponses %v)", params, id, want.TaskID, want.InputResponses)
		}
	})
}

// FuzzPlainTaskCall: when plainTaskCall reads the params of a tools/call,
// it reads what json.Unmarshal into a taskCall reads.
func FuzzPlainTaskCall(f *testing.F) {
	for _, s := range taskParamsSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, params []byte) {
		if !json.Valid(params) {
			return
		}
		got, ok := plainTaskCall(params)
		if !ok {
			return
		}
		var want taskCall
		if err := json.Unmarshal(params, &want); err != nil {
			t.Fatalf("%s: read %+v; json.Unmarshal: %v", params, got, err)
		}
		if got.Name != want.Name || !bytes.Equal(got.Arguments, want.Arguments) || want.InputResponses != nil || want.RequestState != "" {
			t.Fatalf("%s: got name %q, arguments %s; want json.Unmarshal's %+v", params, got.Name, got.Arguments, want)
		}
	})
}

// TestPlainTaskReaders: the readers take the plain shapes and leave the
// others to json.Unmarshal.
func TestPlainTaskReaders(t *testing.T) {
	for _, tc := range []struct {
		params string
		id     string
		ok     bool
	}{
		{`{"taskId":"t1"}`, "t1", true},
		{` { "taskId" : "t1" , "_meta" : {"x":[1,{"taskId":"no"}]} } `, "t1", true},
		{`{"taskId":"t\u0031"}`, "", false},
		{`{"taskid":"t1"}`, "", false},
		{`{"taskId":"a","taskId":"b"}`, "", false},
		{`{"taskId":"t1","inputResponses":{}}`, "", false},
		{`{"taskId":7}`, "", false},
		{`{}`, "", false},
	} {
		if id, ok := plainTaskID(json.RawMessage(tc.params)); id != tc.id || ok != tc.ok {
			t.Errorf("plainTaskID(%s): got %q, %v; want %q, %v", tc.params, id, ok, tc.id, tc.ok)
		}
	}
	for _, tc := range []struct {
		params, name, args string
		ok                 bool
	}{
		{`{"name":"echo","arguments":{"a":1},"_meta":{"k":1}}`, "echo", `{"a":1}`, true},
		{`{"name":"echo"}`, "echo", ``, true},
		{`{"name":"echo","arguments":null}`, "echo", `null`, true},
		{`{"name":"echo","requestState":"s"}`, "", "", false},
		{`{"name":"echo","inputResponses":{}}`, "", "", false},
		{`{"Name":"echo"}`, "", "", false},
		{`{"name":"e\"cho"}`, "", "", false},
		{`{"arguments":{}}`, "", "", false},
	} {
		got, ok := plainTaskCall(json.RawMessage(tc.params))
		if ok != tc.ok || ok && (got.Name != tc.name || string(got.Arguments) != tc.args) {
			t.Errorf("plainTaskCall(%s): got %+v, %v; want name %q, arguments %q, %v", tc.params, got, ok, tc.name, tc.args, tc.ok)
		}
	}
}

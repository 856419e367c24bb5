package mcpbridge

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/manifest"
)

// TestElicitationOverStdio asks a client of an older protocol over stdio:
// the server's elicitation/create request and the client's answer pass the
// stdio filters, and the call runs once approved. The client's person reads
// the question every approver asks: the tool, that it may delete or
// overwrite, and the reason.
func TestElicitationOverStdio(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		action, want string
		isError      bool
	}{
		{"accept", "ran", false},
		{"decline", "The person declined this call, so t_write did not run. They were asked: Write a.md", true},
	} {
		t.Run(tt.action, func(t *testing.T) {
			b := &fakeBackend{
				tools: []host.Tool{{Mod: "m", Tool: manifestTool("t_write", `{"type":"object"}`)}},
				call: func(ctx context.Context, req *host.CallRequest) *host.CallResult {
					res := &host.CallResult{Tool: req.Tool, Status: host.StatusFailed, Text: "Tool failed: no approver"}
					if req.Asker == nil || !req.Asker.CanAsk(host.AskForm) {
						return res
					}
					question := (&host.ApprovalRequest{Tool: req.Tool, Title: "Write a file", Reason: "Write a.md", Input: req.Input,
						Annotations: &manifest.Annotations{Destructive: true}}).Question()
					params, _ := json.Marshal(map[string]any{"mode": "form", "message": question, "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{}}})
					a, err := req.Asker.Ask(ctx, &host.Question{Kind: host.AskForm, Key: host.ApprovalKey, Approval: true, Message: question, Params: params})
					var answer struct{ Action string }
					json.Unmarshal(a, &answer)
					switch {
					case err != nil:
						res.Text = "Tool failed: " + err.Error()
					case answer.Action != "accept":
						res.Status, res.Text = host.StatusDenied, "The person declined this call, so t_write did not run. They were asked: Write a.md"
					default:
						res.Status, res.Text, res.Result = host.StatusCompleted, "ran", json.RawMessage(`{}`)
					}
					return res
				},
			}
			srv, err := NewServer(b, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := startStdio(t, srv, nil, nil)
			s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}`)
			if m := s.next(); m["id"] != 1.0 {
				t.Fatalf("got %v, want the initialize response", m)
			}
			s.send(initializedLine, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t_write","arguments":{}}}`)
			ask := s.next()
			params, _ := ask["params"].(map[string]any)
			if ask["method"] != "elicitation/create" || params["message"] != "Write a file (t_write), which may delete or overwrite, needs your approval: Write a.md" {
				t.Fatalf("got %v, want an elicitation/create request with the question", ask)
			}
			id, _ := json.Marshal(ask["id"])
			s.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"action":"` + tt.action + `"}}`)
			resp := s.next()
			result, _ := resp["result"].(map[string]any)
			content, _ := result["content"].([]any)
			if resp["id"] != 2.0 || len(content) != 1 {
				t.Fatalf("got %v, want the call's result", resp)
			}
			text, _ := content[0].(map[string]any)["text"].(string)
			isError, _ := result["isError"].(bool)
			if text != tt.want || isError != tt.isError {
				t.Errorf("got %q (isError %v), want %q (isError %v)", text, isError, tt.want, tt.isError)
			}
		})
	}
}

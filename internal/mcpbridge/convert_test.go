package mcpbridge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

func TestOutputContent(t *testing.T) {
	t.Parallel()
	res := &host.CallResult{Tool: "t", CallID: "c1"}
	tests := []struct {
		name string
		out  sdk.Output
		want string // the content's JSON
	}{
		{"png", sdk.Output{MimeType: "image/png", Content: "AAEC"},
			`{"type":"image","mimeType":"image/png","data":"AAEC"}`},
		{"wav", sdk.Output{MimeType: "audio/wav", Content: "AAEC"},
			`{"type":"audio","mimeType":"audio/wav","data":"AAEC"}`},
		{"image with parameters", sdk.Output{MimeType: "Image/SVG+XML; charset=utf-8", Content: "AAEC"},
			`{"type":"image","mimeType":"Image/SVG+XML; charset=utf-8","data":"AAEC"}`},
		{"text with URI", sdk.Output{MimeType: "text/markdown", Content: "# Hi", URI: "file:///r.md"},
			`{"type":"resource","resource":{"uri":"file:///r.md","mimeType":"text/markdown","text":"# Hi"}}`},
		{"json without URI", sdk.Output{MimeType: "application/json", Content: `{"a":1}`},
			`{"type":"resource","resource":{"uri":"modkit://t/c1/3","mimeType":"application/json","text":"{\"a\":1}"}}`},
		{"binary", sdk.Output{MimeType: "application/pdf", Content: "AAEC"},
			`{"type":"resource","resource":{"uri":"modkit://t/c1/3","mimeType":"application/pdf","blob":"AAEC"}}`},
		{"image that is not base64", sdk.Output{MimeType: "image/png", Content: "not base64!"},
			`{"type":"resource","resource":{"uri":"modkit://t/c1/3","mimeType":"image/png","text":"not base64!"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(outputContent(res, 3, tt.out))
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(t, got, []byte(tt.want)) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestCallResult(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		res     host.CallResult
		wrapped bool
		want    string
	}{
		{"text", host.CallResult{Status: host.StatusCompleted, Text: "hi"},
			false, `{"content":[{"type":"text","text":"hi"}]}`},
		{"empty text", host.CallResult{Status: host.StatusCompleted},
			false, `{"content":[{"type":"text","text":""}]}`},
		{"output only", host.CallResult{Status: host.StatusCompleted, Outputs: []sdk.Output{{MimeType: "image/png", Content: "AAEC"}}},
			false, `{"content":[{"type":"image","mimeType":"image/png","data":"AAEC"}]}`},
		{"rendered", host.CallResult{Status: host.StatusCompleted, Text: "2 hits", Result: json.RawMessage(`{"hits":2}`)},
			false, `{"content":[{"type":"text","text":"2 hits"}],"structuredContent":{"hits":2}}`},
		{"rendered wrapped", host.CallResult{Status: host.StatusCompleted, Text: "3", Result: json.RawMessage(`[1,2,3]`)},
			true, `{"content":[{"type":"text","text":"3"}],"structuredContent":{"result":[1,2,3]}}`},
		{"failed", host.CallResult{Status: host.StatusFailed, Text: "Tool failed: no", Error: "no"},
			false, `{"content":[{"type":"text","text":"Tool failed: no"}],"isError":true}`},
		{"failed without text", host.CallResult{Status: host.StatusFailed, Error: "no"},
			false, `{"content":[{"type":"text","text":"Tool failed: no"}],"isError":true}`},
		{"cancelled", host.CallResult{Status: host.StatusCancelled, Error: "context canceled"},
			false, `{"content":[{"type":"text","text":"Tool call cancelled: context canceled"}],"isError":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(callResult(&tt.res, tt.wrapped))
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(t, got, []byte(tt.want)) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestSchemas(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		in         string
		wantIn     string // "" when the input schema is refused
		wantOut    string
		wantWrap   bool
		wantOutErr bool
	}{
		{
			name:    "object",
			in:      `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"a":{"type":"string"}}}`,
			wantIn:  `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"a":{"type":"string"}}}`,
			wantOut: `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"a":{"type":"string"}}}`,
		},
		{
			name:    "recursive root",
			in:      `{"$ref":"#/$defs/Tree","$defs":{"Tree":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Tree"}}}}}}`,
			wantIn:  `{"type":"object","$ref":"#/$defs/Tree","$defs":{"Tree":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Tree"}}}}}}`,
			wantOut: `{"type":"object","$ref":"#/$defs/Tree","$defs":{"Tree":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Tree"}}}}}}`,
		},
		{
			name:     "array",
			in:       `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"array","items":{"$ref":"#/$defs/Hit"},"$defs":{"Hit":{"type":"object"}}}`,
			wantOut:  `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","required":["result"],"additionalProperties":false,"properties":{"result":{"type":"array","items":{"$ref":"#/$defs/Hit"}}},"$defs":{"Hit":{"type":"object"}}}`,
			wantWrap: true,
		},
		{
			name:     "string",
			in:       `{"type":"string"}`,
			wantOut:  `{"type":"object","required":["result"],"additionalProperties":false,"properties":{"result":{"type":"string"}}}`,
			wantWrap: true,
		},
		{
			name:       "not JSON",
			in:         `{`,
			wantOutErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := inputSchema(json.RawMessage(tt.in))
			if tt.wantIn == "" {
				if err == nil {
					t.Errorf("inputSchema: got %s, want an error", in)
				}
			} else if err != nil || !sameJSON(t, in, []byte(tt.wantIn)) {
				t.Errorf("inputSchema: got %s, %v, want %s", in, err, tt.wantIn)
			}
			out, wrapped, err := outputSchema(json.RawMessage(tt.in))
			if tt.wantOutErr {
				if err == nil {
					t.Errorf("outputSchema: got %s, want an error", out)
				}
				return
			}
			if err != nil || !sameJSON(t, out, []byte(tt.wantOut)) || wrapped != tt.wantWrap {
				t.Errorf("outputSchema: got %s wrapped=%v, %v; want %s wrapped=%v", out, wrapped, err, tt.wantOut, tt.wantWrap)
			}
		})
	}
}

func TestStructuredContentMatchesWrappedSchema(t *testing.T) {
	t.Parallel()
	// A wrapped result and its schema agree: the SDK's client validates
	// structured content against the output schema.
	b := &fakeBackend{
		tools: []host.Tool{{Mod: "m", Tool: manifestTool("list_things", `{"type":"array","items":{"type":"integer"}}`)}},
		call: func(_ context.Context, req *host.CallRequest) *host.CallResult {
			return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: "3 things", Result: json.RawMessage(`[1,2,3]`)}
		},
	}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connectServer(t, srv)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_things"})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if got, want := mustMarshal(t, res.StructuredContent), `{"result":[1,2,3]}`; got != want {
		t.Errorf("structuredContent: got %s, want %s", got, want)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return mustMarshal(t, x) == mustMarshal(t, y)
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(data))
}

func TestRenderViewToolNameReserved(t *testing.T) {
	t.Parallel()
	viewed := manifestTool("shows", `{"type":"object"}`)
	viewed.HasView = true
	b := &fakeBackend{tools: []host.Tool{
		{Mod: "a", Tool: viewed},
		{Mod: "b", Tool: manifestTool(RenderViewTool, `{"type":"object"}`)},
	}}
	_, err := NewServer(b, nil)
	if err == nil || !strings.Contains(err.Error(), "mod b") {
		t.Errorf("NewServer: got %v, want an error naming mod b's tool %s", err, RenderViewTool)
	}
}

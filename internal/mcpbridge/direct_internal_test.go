package mcpbridge

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPlainResult: a text result is encoded without reflection exactly as
// writeDirect encodes it once the server's _meta is added; any other
// result is left to writeDirect.
func TestPlainResult(t *testing.T) {
	calls := &directCalls{impl: &mcp.Implementation{Name: "modhost <&>", Version: "v1.2.3", Title: "Mod \u2028host"}}
	text := func(s ...string) *mcp.CallToolResult {
		res := &mcp.CallToolResult{}
		for _, x := range s {
			res.Content = append(res.Content, &mcp.TextContent{Text: x})
		}
		return res
	}
	failed := text(`{"error":"no"}`)
	failed.IsError = true
	for _, tc := range []struct {
		name string
		id   string
		res  *mcp.CallToolResult
	}{
		{"one", `7`, text(`{"message":"hi","tags":["a"]}`)},
		{"escapes", `"x-1"`, text("<b>&amp;</b> \"q\" \\ \n\t\x01 \u2028 \xff\xfe é 😀")},
		{"empty text", `0`, text("")},
		{"several", `-12`, text("a", "b", "c")},
		{"error", `3`, failed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := calls.plainResult(json.RawMessage(tc.id), tc.res)
			if !ok {
				t.Fatal("got not plain, want plain")
			}
			tc.res.SetMeta(map[string]any{mcp.MetaKeyServerInfo: calls.impl})
			w := httptest.NewRecorder()
			writeDirect(w, json.RawMessage(tc.id), tc.res, nil)
			if want := w.Body.String(); string(got) != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
	for _, tc := range []struct {
		name string
		res  *mcp.CallToolResult
	}{
		{"no content", &mcp.CallToolResult{}},
		{"meta", &mcp.CallToolResult{Meta: mcp.Meta{"k": 1}, Content: []mcp.Content{&mcp.TextContent{Text: "a"}}}},
		{"structured", &mcp.CallToolResult{StructuredContent: map[string]any{"a": 1}, Content: []mcp.Content{&mcp.TextContent{Text: "a"}}}},
		{"image", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte("x"), MIMEType: "image/png"}}}},
		{"annotated", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a", Annotations: &mcp.Annotations{Priority: 1}}}}},
		{"text meta", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a", Meta: mcp.Meta{"k": 1}}}}},
		{"request state", &mcp.CallToolResult{RequestState: "s", Content: []mcp.Content{&mcp.TextContent{Text: "a"}}}},
	} {
		if got, ok := calls.plainResult(json.RawMessage(`1`), tc.res); ok {
			t.Errorf("%s: got plain %s, want it left to writeDirect", tc.name, got)
		}
	}
}

// TestDecodedOK: a value that decodes is remembered and not decoded again;
// one that does not is never remembered; and no more than maxDecoded are.
func TestDecodedOK(t *testing.T) {
	var d decodedOK
	decoded := 0
	decode := func(b []byte) bool { decoded++; return json.Valid(b) }
	for range 3 {
		if !d.check([]byte(`{"a":1}`), decode) {
			t.Fatal(`got {"a":1} refused, want accepted`)
		}
	}
	if decoded != 1 {
		t.Errorf("got %d decodes of one value, want 1", decoded)
	}
	for range 2 {
		if d.check([]byte(`{"a":`), decode) {
			t.Fatal(`got {"a": accepted, want refused`)
		}
	}
	if decoded != 3 {
		t.Errorf("got %d decodes, want 3: a refused value is decoded each time", decoded)
	}
	for i := range 2 * maxDecoded {
		d.check(json.RawMessage(`{"n":`+string(rune('0'+i%10))+`,"i":"`+string(rune('a'+i))+`"}`), decode)
	}
	if n := len(*d.seen.Load()); n != maxDecoded {
		t.Errorf("got %d values remembered, want %d", n, maxDecoded)
	}
}

// TestMetaMemo: a call's _meta decodes through the memo as json.Unmarshal
// decodes it, the same _meta again too, and each call gets maps of its own.
func TestMetaMemo(t *testing.T) {
	var mm metaMemo
	raws := []string{
		`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"x":[1,{"a":null}]},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"v1"}}`,
		`{}`,
		`{"a":1,"a":"\ud800 twice"}`,
	}
	for _, raw := range raws {
		var want mcp.Meta
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			got, ok := mm.decode(json.RawMessage(raw))
			if !ok || !reflect.DeepEqual(got, want) {
				t.Fatalf("decode %d of %s = %v, %v; want %v, true", i, raw, got, ok, want)
			}
			// What one call does to its _meta, the next does not see.
			for k, v := range got {
				if m, ok := v.(map[string]any); ok {
					m["changed"] = true
				}
				got[k] = "changed"
			}
		}
	}
	if _, ok := mm.decode(json.RawMessage(`{"a":}`)); ok {
		t.Errorf("decode of invalid JSON: got ok, want not ok")
	}
}

// TestMetaMemoAllocs: the _meta a client sends again costs less than
// decoding it.
func TestMetaMemoAllocs(t *testing.T) {
	raw := json.RawMessage(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"v1"}}`)
	var mm metaMemo
	memo := testing.AllocsPerRun(100, func() { mm.decode(raw) })
	plain := testing.AllocsPerRun(100, func() { (*metaMemo)(nil).decode(raw) })
	if memo >= plain {
		t.Errorf("got %v allocations a decode through the memo, want fewer than without (%v)", memo, plain)
	}
	t.Logf("%v allocations through the memo, %v without", memo, plain)
}

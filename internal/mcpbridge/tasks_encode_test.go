package mcpbridge

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/taskstore"
)

// TestResultJSON: a tools/call result a task keeps or a call answers is
// written, with or without reflection, as json.Marshal writes it (its
// content never null) followed by its resultType.
func TestResultJSON(t *testing.T) {
	text := func(ss ...string) []mcp.Content {
		var cs []mcp.Content
		for _, s := range ss {
			cs = append(cs, &mcp.TextContent{Text: s})
		}
		return cs
	}
	for _, res := range []*mcp.CallToolResult{
		{Content: text(`{"message":"hi"}`)},
		{Content: text("a <b> & \"c\"\n", "é\u2028\xff", "")},
		{Content: text("no luck"), IsError: true},
		{Content: []mcp.Content{}},
		{},
		{Content: text("x"), StructuredContent: map[string]any{"a": 1}},
		{Content: text("x"), Meta: mcp.Meta{"k": "v"}},
		{Content: []mcp.Content{&mcp.ImageContent{Data: []byte("x"), MIMEType: "image/png"}}},
		{InputRequests: mcp.InputRequestMap{"q": &mcp.ElicitParams{Message: "name?"}}},
	} {
		got, err := resultJSON(res)
		if err != nil {
			t.Fatal(err)
		}
		rt := "complete"
		if res.InputRequests != nil {
			rt = "input_required"
		} else if res.Content == nil {
			res.Content = []mcp.Content{} // never "null"
		}
		data, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		want := string(data[:len(data)-1])
		if len(data) > 2 {
			want += ","
		}
		want += `"resultType":"` + rt + `"}`
		if string(got) != want {
			t.Errorf("%+v:\ngot  %s\nwant %s", res, got, want)
		}
	}
}

// TestAppendTaskFields: the hand-written encoding is what json.Marshal
// writes for the same fields.
func TestAppendTaskFields(t *testing.T) {
	created := time.Date(2026, 7, 28, 10, 4, 5, 123456789, time.FixedZone("X", 3600))
	for _, msg := range []string{"", "done", `say "hi"`, `back\slash`, "tab\tand\nline", "<b>&amp;</b>", "échelle", "\u2028", "\x7f", string([]byte{0xff, 'a'})} {
		for _, rt := range []string{"task", "complete"} {
			task := &taskstore.Task{ID: "0123abcd", Status: taskstore.Working, StatusMessage: msg,
				CreatedAt: created, UpdatedAt: created.Add(time.Millisecond), TTL: 90 * time.Minute}
			got := string(appendTaskFields(nil, task, rt))
			want, err := json.Marshal(fieldsOf(task, rt))
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("status message %q, resultType %q:\ngot  %s\nwant %s", msg, rt, got, want)
			}
		}
	}
}

// FuzzAppendJSONString: any string comes out as the JSON encoding/json
// writes for it.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", `"`, "\x00", "é", "<>&", "\b\f\n\r\t\x1f\x7f", `{"a":"b\\c","d":[1]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}

package mcpbridge

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/taskstore"
)

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
	for _, s := range []string{"", "plain", `"`, "\x00", "é", "<>&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}

package modapi

import (
	"maps"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk"
)

func TestSlashArgs(t *testing.T) {
	t.Parallel()
	names, required := []string{"path", "focus"}, []bool{true, false}
	tests := []struct {
		text string
		want map[string]string
		err  string
	}{
		{"a.md", map[string]string{"path": "a.md"}, ""},
		{"  a.md   open questions  ", map[string]string{"path": "a.md", "focus": "open questions"}, ""},
		{"", nil, "slash command /s needs its path argument: type /s <path> [focus]"},
	}
	for _, tt := range tests {
		got, err := SlashArgs("s", names, required, tt.text)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("SlashArgs(%q): got error %v, want %q", tt.text, err, tt.err)
			}
			continue
		}
		if err != nil || !maps.Equal(got, tt.want) {
			t.Errorf("SlashArgs(%q) = %v, %v; want %v", tt.text, got, err, tt.want)
		}
	}
}

func TestJoinArgs(t *testing.T) {
	t.Parallel()
	if got := JoinArgs([]string{"a", "b", "c"}, map[string]string{"c": "3", "a": " 1 "}); got != "1 3" {
		t.Errorf("got %q, want %q", got, "1 3")
	}
}

func TestCheckMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		msg  sdk.PromptMessage
		want string
	}{
		{sdk.UserText("hi"), ""},
		{sdk.PromptMessage{}, ""},
		{sdk.PromptMessage{Role: "system", Text: "x"}, `role "system"`},
		{sdk.PromptMessage{Text: "x", Image: &sdk.Image{MIMEType: "image/png"}}, "not more"},
		{sdk.PromptMessage{Image: &sdk.Image{}}, "image with no MIME type"},
		{sdk.PromptMessage{Resource: &sdk.EmbeddedResource{}}, "resource with no URI"},
		{sdk.PromptMessage{Resource: &sdk.EmbeddedResource{URI: "x:y", ResourceContents: sdk.ResourceContents{Text: "a", Blob: []byte("b")}}}, "both text and a blob"},
	}
	for _, tt := range tests {
		got := CheckMessages("prompt p", []sdk.PromptMessage{tt.msg})
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("CheckMessages(%+v) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

func TestCapCompletion(t *testing.T) {
	t.Parallel()
	values := make([]string, 150)
	c := CapCompletion(sdk.Completion{Values: values})
	if len(c.Values) != MaxCompletionValues || !c.HasMore || c.Total != 150 {
		t.Errorf("got %d values, hasMore %v, total %d; want 100, true, 150", len(c.Values), c.HasMore, c.Total)
	}
}

package devserver_test

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const researchDir = "../../examples/research"

func TestPromptReadComplete(t *testing.T) {
	t.Parallel()
	f := start(t, researchDir)
	if err := os.MkdirAll(filepath.Join(f.ws, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"notes/plan.md": "# Plan\n", "notes/pad.txt": "pad\n", "main.go": "package main\n"} {
		if err := os.WriteFile(filepath.Join(f.ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	var c struct {
		Values  []string
		HasMore bool
	}
	f.decode("POST", "/api/complete", map[string]any{"prompt": "summarize", "argument": "path", "value": "notes/pl"}, http.StatusOK, &c)
	if want := []string{"notes/plan.md"}; !slices.Equal(c.Values, want) {
		t.Errorf("complete /summarize path: got %v, want %v", c.Values, want)
	}
	f.decode("POST", "/api/complete", map[string]any{"template": "research://notes/{path}", "argument": "path", "value": "notes/"}, http.StatusOK, &c)
	if want := []string{"notes/pad.txt", "notes/plan.md"}; !slices.Equal(c.Values, want) {
		t.Errorf("complete the note template: got %v, want %v", c.Values, want)
	}

	var p struct {
		OK       bool
		Error    string
		Messages []struct{ Role, Kind, Text, URI, MIMEType string }
	}
	f.decode("POST", "/api/prompt", map[string]any{"id": "summarize", "arguments": map[string]string{"path": "notes/plan.md"}}, http.StatusOK, &p)
	if !p.OK || len(p.Messages) != 2 || p.Messages[0].Kind != "resource" || p.Messages[0].Text != "# Plan\n" ||
		p.Messages[1].Role != "user" || !strings.HasPrefix(p.Messages[1].Text, "Summarize the file above") {
		t.Errorf("prompt summarize: got %+v, want the file embedded and the request", p)
	}
	f.decode("POST", "/api/prompt", map[string]any{"id": "summarize", "arguments": map[string]string{"path": "nope.md"}}, http.StatusOK, &p)
	if p.OK || !strings.Contains(p.Error, "nope.md") {
		t.Errorf("prompt of a missing file: got %+v, want the mod's error", p)
	}

	var r struct {
		OK   bool
		Text string
	}
	f.decode("POST", "/api/read", map[string]any{"uri": "research://notes/notes%2Fplan.md"}, http.StatusOK, &r)
	if !r.OK || r.Text != "# Plan\n" {
		t.Errorf("read a note: got %+v", r)
	}

	for _, tt := range []struct {
		path string
		body map[string]any
		want int
	}{
		{"/api/prompt", map[string]any{"id": "nope"}, http.StatusNotFound},
		{"/api/prompt", map[string]any{"id": "summarize"}, http.StatusBadRequest},
		{"/api/prompt", map[string]any{"id": "summarize", "arguments": map[string]string{"path": "a", "tone": "dry"}}, http.StatusBadRequest},
		{"/api/read", map[string]any{"uri": "research://nothing"}, http.StatusNotFound},
		{"/api/read", map[string]any{"uri": "research://notes/gone.md"}, http.StatusNotFound},
		{"/api/complete", map[string]any{"prompt": "summarize", "argument": "tone"}, http.StatusBadRequest},
		{"/api/complete", map[string]any{"argument": "path"}, http.StatusBadRequest},
		{"/api/complete", map[string]any{"prompt": "nope", "argument": "path"}, http.StatusNotFound},
	} {
		if code, body := f.do("POST", tt.path, tt.body); code != tt.want {
			t.Errorf("POST %s %v: got %d %s, want %d", tt.path, tt.body, code, body, tt.want)
		}
	}
}

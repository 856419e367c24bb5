package host_test

import (
	"testing"

	"github.com/modkit/modkit/host"
)

func TestCallEcho(t *testing.T) {
	h := load(t, nil, crashyDir)
	res := call(t, h, "crashy_echo", `{"text":"hi","times":2}`)
	wantStatus(t, res, host.StatusCompleted)
	if res.Text != "hi hi" {
		t.Errorf("got text %q, want %q", res.Text, "hi hi")
	}
	if len(res.Outputs) != 2 || res.Outputs[0].Content != "hi hi" || res.Outputs[1].MimeType != "application/json" {
		t.Errorf("got outputs %+v, want the output then the extra", res.Outputs)
	}
	if res.Activity.Title != "Echo" {
		t.Errorf("got title %q, want %q", res.Activity.Title, "Echo")
	}
}

package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// The bundled example mods, built and run through the host.
var exampleDirs = []string{"../examples/research", "../examples/dependencies"}

func TestExampleMods(t *testing.T) {
	t.Parallel()
	h := load(t, nil, exampleDirs...)
	res := call(t, h, "research_word_count", `{"text":"one two three"}`)
	wantStatus(t, res, host.StatusCompleted)
	if !strings.Contains(res.Text, "3 words") {
		t.Errorf("got %q, want it to count 3 words", res.Text)
	}

	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("alpha\nneedle here\nomega\n"), 0o644)
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool: "research_search_workspace", Input: json.RawMessage(`{"query":"needle"}`),
		Session: sdk.Session{ID: "s", Workspace: ws}, Agent: "researcher",
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCompleted)
	if !strings.Contains(res.Text, "notes.txt:2") || len(res.Result) == 0 {
		t.Errorf("got text %q result %s, want the hit in notes.txt:2 and a typed result", res.Text, res.Result)
	}
	html, err := h.RenderView(context.Background(), "research_search_workspace",
		sdk.RawViewState{Phase: sdk.PhaseCompleted, Input: json.RawMessage(`{"query":"needle"}`), Result: res.Result})
	if err != nil || !strings.Contains(html, "needle") {
		t.Errorf("RenderView: got %q, %v; want HTML showing the hit", html, err)
	}

	// The reviewer agent may not count words.
	_, err = h.Call(context.Background(), &host.CallRequest{Tool: "research_word_count", Agent: "reviewer",
		Input: json.RawMessage(`{"text":"x"}`), Session: session(t)})
	if !errors.Is(err, host.ErrNotAllowed) {
		t.Errorf("got %v, want ErrNotAllowed", err)
	}
}

// TestResearchNoteUpdates saves a note with research_save_note and waits
// for the updates of the note's resource and of the index it joins.
func TestResearchNoteUpdates(t *testing.T) {
	t.Parallel()
	h := load(t, nil, "../examples/research")
	got := make(chan host.ResourceUpdate, 2)
	remove := h.OnResourceUpdated(func(u host.ResourceUpdate) {
		select {
		case got <- u:
		default:
		}
	})
	defer remove()
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool: "research_save_note", Input: json.RawMessage(`{"path":"notes/plan.md","text":"# Plan\n"}`),
		Session:  inWorkspace(t.TempDir()),
		Approver: func(context.Context, *host.ApprovalRequest) (bool, error) { return true, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCompleted)
	want := map[string]bool{"research://notes/notes%2Fplan.md": true, "research://notes/index": true}
	for len(want) > 0 {
		var u host.ResourceUpdate
		select {
		case u = <-got:
		case <-time.After(30 * time.Second):
			t.Fatalf("no update of %v within 30 s", want)
		}
		if u.Mod != "research" || !want[u.URI] {
			t.Fatalf("got update %+v, want one of %v of mod research", u, want)
		}
		delete(want, u.URI)
	}
}

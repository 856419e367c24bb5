package dependencies_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// TestExamplesAsModBinaries builds both example mods as plugin binaries
// (or finds them built from the same sources), loads them through their manifests and calls them across the process
// boundary, the way a host runs them.
func TestExamplesAsModBinaries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two mod binaries")
	}
	// The cache every package's tests share, across runs (the one
	// internal/testenv.ModCache names, which an example may not import):
	// its keys hash the mods' sources, so a run builds a mod only when it
	// changed.
	userCache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.Load([]string{"../research", "."}, &host.Options{
		CacheDir: filepath.Join(userCache, "modkit-test"),
		Progress: io.Discard,
		Today:    func() string { return "2026-01-02" },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()

	ws := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(ws, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/app\n")
	write("store/store.go", "package store\n\nfunc Save() {}\n")
	write("api/api.go", "package api\n\nimport \"example.com/app/store\"\n\nvar _ = store.Save\n")
	session := sdk.Session{ID: "s1", Workspace: ws}
	ctx := context.Background()

	res, err := h.Call(ctx, &host.CallRequest{
		Tool: "research_search_workspace", Input: json.RawMessage(`{"query":"store.Save"}`),
		Session: session, Agent: "reviewer",
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "1 match for \"store.Save\" in 3 files:\napi/api.go:5 var _ = store.Save"; res.Status != host.StatusCompleted || res.Text != want {
		t.Errorf("search: got %s %q, want completed %q", res.Status, res.Text, want)
	}

	res, err = h.Call(ctx, &host.CallRequest{
		Tool: "dependencies_inspect", Input: json.RawMessage(`{"package":"example.com/app/store"}`),
		Session: session,
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "1 package imports example.com/app/store directly (2 packages in module example.com/app scanned):\nexample.com/app/api"; res.Status != host.StatusCompleted || res.Text != want {
		t.Errorf("inspect: got %s %q, want completed %q", res.Status, res.Text, want)
	}

	res, err = h.Call(ctx, &host.CallRequest{
		Tool: "research_search_workspace", Input: json.RawMessage(`{"query":"x","limit":500}`), Session: session,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != host.StatusFailed || !strings.Contains(res.Text, "limit") {
		t.Errorf("limit 500: got %s %q, want failed naming limit", res.Status, res.Text)
	}

	if _, err := h.Call(ctx, &host.CallRequest{
		Tool: "research_word_count", Input: json.RawMessage(`{"text":"a"}`), Session: session, Agent: "reviewer",
	}); !errors.Is(err, host.ErrNotAllowed) {
		t.Errorf("reviewer calling word count: got %v, want ErrNotAllowed", err)
	}

	// The one command that runs the go command, as the mod declares.
	if msg, err := h.RunCommand(ctx, "dependencies.toolchain", nil, session); err != nil || !strings.HasPrefix(msg, "The workspace builds with go1.") {
		t.Errorf("dependencies.toolchain: got %q, %v", msg, err)
	}

	msg, err := h.RunSlashCommand(ctx, "deps", "example.com/app/store", session)
	if err != nil || !strings.HasPrefix(msg, "1 package imports example.com/app/store directly") {
		t.Errorf("/deps: got %q, %v", msg, err)
	}
	// The same slash command is the prompt deps, with its declared
	// argument, and completes import paths.
	pr, err := h.GetPrompt(ctx, "deps", map[string]string{"package": "example.com/app/store"}, session)
	if err != nil || len(pr.Messages) != 2 || !strings.HasPrefix(pr.Messages[0].Text, "1 package imports example.com/app/store directly") {
		t.Errorf("prompt deps: got %+v, %v", pr, err)
	}
	if _, err := h.GetPrompt(ctx, "deps", nil, session); !errors.Is(err, host.ErrBadArguments) {
		t.Errorf("prompt deps without its package: got %v, want ErrBadArguments", err)
	}
	c, err := h.Complete(ctx, &host.CompleteRequest{Prompt: "deps", CompletionRequest: sdk.CompletionRequest{Argument: "package", Value: "example.com/app/st"}, Session: session})
	if err != nil || !slices.Equal(c.Values, []string{"example.com/app/store"}) {
		t.Errorf("complete deps package: got %+v, %v; want example.com/app/store", c, err)
	}
	// research's /summarize has only a prompt: a person gets its text.
	pr, err = h.GetPrompt(ctx, "summarize", map[string]string{"path": "api/api.go", "focus": "imports"}, session)
	if err != nil || len(pr.Messages) != 2 || pr.Messages[0].Resource == nil || !strings.HasPrefix(pr.Messages[0].Resource.Text, "package api") ||
		!strings.Contains(pr.Messages[1].Text, "dwelling on imports") {
		t.Errorf("prompt summarize: got %+v, %v", pr, err)
	}
	if msg, err := h.RunSlashCommand(ctx, "summarize", "api/api.go", session); err != nil || !strings.HasPrefix(msg, "package api") {
		t.Errorf("/summarize api/api.go: got %q, %v", msg, err)
	}
	if _, err := h.RunSlashCommand(ctx, "summarize", "", session); err == nil || !strings.Contains(err.Error(), "needs its path argument: type /summarize <path> [focus]") {
		t.Errorf("/summarize: got %v, want the usage", err)
	}
	c, err = h.Complete(ctx, &host.CompleteRequest{Prompt: "summarize", CompletionRequest: sdk.CompletionRequest{Argument: "path", Value: "st"}, Session: session})
	if err != nil || !slices.Equal(c.Values, []string{"store/store.go"}) {
		t.Errorf("complete summarize path: got %+v, %v; want store/store.go", c, err)
	}
	msg, err = h.RunCommand(ctx, "research.stats", nil, session)
	if err != nil || !strings.HasPrefix(msg, "The workspace has 3 files") {
		t.Errorf("research.stats: got %q, %v", msg, err)
	}

	res, err = h.Call(ctx, &host.CallRequest{
		Tool: "research_search_workspace", Input: json.RawMessage(`{"query":"x"}`),
		Session: sdk.Session{ID: "s2", Workspace: "/"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != host.StatusFailed || !strings.Contains(res.Text, "refusing to search the filesystem root") {
		t.Errorf("search of /: got %s %q, want the hook's refusal", res.Status, res.Text)
	}
}

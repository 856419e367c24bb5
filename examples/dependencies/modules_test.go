package dependencies

import (
	"testing"

	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

func TestModulesInTheMod(t *testing.T) {
	work := workspace(t, map[string]string{
		"go.work":      "go 1.26\n\nuse (\n\t./lib\n\t./app\n)\n",
		"lib/go.mod":   "module example.com/lib\n",
		"app/go.mod":   "module example.com/app\n",
		"other/go.mod": "module example.com/other\n",
	})
	single := workspace(t, map[string]string{"go.mod": "module example.com/solo\n"})
	tests := []struct {
		name, dir, input, want string
	}{
		{"go.work", work, `{}`, "The workspace has 2 modules:\n- example.com/lib in lib\n- example.com/app in app"},
		{"contains", work, `{"contains":"app"}`, "Modules whose path contains \"app\" (1 of 2):\n- example.com/app in app"},
		{"none contains", work, `{"contains":"zzz"}`,
			"No module path contains \"zzz\"; the workspace has 2 modules: example.com/lib, example.com/app."},
		{"go.mod", single, `{}`, "The workspace has 1 module:\n- example.com/solo in the workspace root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := modtest.Run(t, generated(), "dependencies_modules", tt.input, &modtest.Options{Workspace: tt.dir})
			if out.Status != modtest.StatusCompleted || out.Text != tt.want {
				t.Errorf("got %s %q, want completed %q", out.Status, out.Text, tt.want)
			}
			if out.ClientInput != nil {
				t.Errorf("the mod ran the call, yet a client got %s", out.ClientInput)
			}
		})
	}
	out := modtest.Run(t, generated(), "dependencies_modules", `{}`, &modtest.Options{Workspace: t.TempDir()})
	if want := "Tool failed: the workspace root has neither go.work nor go.mod: open a Go module as the workspace"; out.Text != want {
		t.Errorf("no module: got %q, want %q", out.Text, want)
	}
}

// A client application that handles the tool answers instead of the mod:
// the model reads its answer, exactly one of them.
func TestModulesInTheClient(t *testing.T) {
	client := &modtest.Client{Answers: []sdk.ClientAnswer{
		{Text: "The workspace has 1 module:\n- example.com/app in the workspace root (go.mod edited, unsaved)"},
		{Text: "a second answer"},
	}}
	out := modtest.Run(t, generated(), "dependencies_modules", `{"contains":"app"}`, &modtest.Options{Client: client})
	if out.Status != modtest.StatusCompleted || out.Text != client.Answers[0].Text {
		t.Errorf("got %s %q, want the client's first answer", out.Status, out.Text)
	}
	if string(out.ClientInput) != `{"contains":"app"}` {
		t.Errorf("the client got input %s", out.ClientInput)
	}
	if len(out.DroppedAnswers) != 1 || out.DroppedAnswers[0].Text != "a second answer" {
		t.Errorf("got dropped answers %v, want the second", out.DroppedAnswers)
	}
	// Input the tool refuses never reaches the client.
	out = modtest.Run(t, generated(), "dependencies_modules", `{"contains":7}`, &modtest.Options{Client: client})
	if out.Status != modtest.StatusFailed || out.ClientInput != nil {
		t.Errorf("invalid input: got %s %q, client input %s; want failed before the client", out.Status, out.Text, out.ClientInput)
	}
}

package apilist

import (
	"slices"
	"testing"
)

func TestNameOf(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`pkg github.com/modkit/modkit/sdk/modtest, const Completed Status = "completed"`, "modtest.Completed"},
		{`pkg github.com/modkit/modkit/sdk/modtest, const Completed //deprecated`, "modtest.Completed"},
		{`pkg github.com/modkit/modkit/sdk, var Any []string`, "sdk.Any"},
		{`pkg github.com/modkit/modkit/sdk, func DefineMod(Mod) *Generated`, "sdk.DefineMod"},
		{`pkg github.com/modkit/modkit/sdk, func Handler[In any](func(In)) Tool`, "sdk.Handler"},
		{`pkg github.com/modkit/modkit/sdk, type PlainTool[In any] struct`, "sdk.PlainTool"},
		{`pkg github.com/modkit/modkit/sdk, type PlainTool struct, Run func(*ToolContext, In) (Result, error)`, "sdk.PlainTool.Run"},
		{`pkg github.com/modkit/modkit/sdk, type Phase string`, "sdk.Phase"},
		{`pkg github.com/modkit/modkit/host, type ApprovalRequest = github.com/modkit/modkit/internal/approval.Request`, "host.ApprovalRequest"},
		{`pkg github.com/modkit/modkit/host, type Options struct, embedded *github.com/x/y.Config[int]`, "host.Options.Config"},
		{`pkg github.com/modkit/modkit/sdk, type Tool interface, unexported methods`, "sdk.Tool"},
		{`pkg github.com/modkit/modkit/sdk, type Asker interface, Ask(context.Context) error`, "sdk.Asker.Ask"},
		{`pkg github.com/modkit/modkit/sdk/modtest, method (*Outcome) ViewState() github.com/modkit/modkit/sdk.RawViewState`, "modtest.Outcome.ViewState"},
		{`pkg github.com/modkit/modkit/host, method (Status) String() string`, "host.Status.String"},
		{`# a comment`, ""},
		{`pkg github.com/modkit/modkit/sdk, label X`, ""},
	} {
		if got := NameOf(c.line); got != c.want {
			t.Errorf("NameOf(%q): got %q, want %q", c.line, got, c.want)
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"`modtest.Completed` is now `modtest.StatusCompleted`.", true},
		{"- modtest.Completed, Failed", true},
		{"modtest.Completed", true},
		{"modtest.Completed.", true},
		{"modtest.CompletedAt is new", false},
		{"xmodtest.Completed", false},
		{"sdk/modtest.Completed", true},
		{"modtest.Completed.Text", false},
	} {
		if got := Names(c.text, "modtest.Completed"); got != c.want {
			t.Errorf("Names(%q, modtest.Completed): got %v, want %v", c.text, got, c.want)
		}
	}
}

func TestCompare(t *testing.T) {
	const (
		kept    = "pkg example.com/p, func Kept()"
		old     = "pkg example.com/p, func Changed(int)"
		changed = "pkg example.com/p, func Changed(string)"
		gone    = "pkg example.com/p, const Gone = 1"
		added   = "pkg example.com/p, var Added int"
	)
	recorded := []string{kept, old, gone}
	current := []string{kept, changed, added}
	for _, c := range []struct {
		changelog       string
		wantUnannounced []string
	}{
		{"", []string{old, gone}},
		{"- `p.Changed` takes a string.", []string{gone}},
		{"- p.Changed takes a string; p.Gone is gone.", nil},
	} {
		d := Compare(recorded, current, c.changelog)
		if !slices.Equal(d.Added, []string{changed, added}) || !slices.Equal(d.Removed, []string{old, gone}) {
			t.Errorf("Compare: got added %q, removed %q; want added %q, removed %q", d.Added, d.Removed, []string{changed, added}, []string{old, gone})
		}
		if !slices.Equal(d.Unannounced, c.wantUnannounced) {
			t.Errorf("Compare with changelog %q: got unannounced %q, want %q", c.changelog, d.Unannounced, c.wantUnannounced)
		}
	}
}

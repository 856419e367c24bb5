package modtest

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk"
)

// Env returns the environment commands, hooks and activation receive, built
// from opts the way Run builds a tool's context. Its logger discards when
// opts has none.
func Env(opts *Options) *sdk.Env {
	if opts == nil {
		opts = &Options{}
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &sdk.Env{Session: session(opts), Today: orDefault(opts.Today, DefaultToday), Logger: logger}
}

// RunCommand runs the command with the given id, with args as its JSON
// arguments ("" means none), and returns its message and error. It fails t
// when the mod has no such command.
func RunCommand(t testing.TB, g *sdk.Generated, id string, args string, opts *Options) (string, error) {
	t.Helper()
	opts = withTestLogger(t, opts)
	for _, c := range g.Mod.Commands {
		if c.ID != id {
			continue
		}
		if c.Run == nil {
			t.Fatalf("modtest: command %s has no Run function", id)
		}
		var raw json.RawMessage
		if args != "" {
			raw = json.RawMessage(args)
		}
		return c.Run(callContext(opts), Env(opts), raw)
	}
	t.Fatalf("modtest: mod %s has no command %q", modID(g), id)
	return "", nil
}

// RunSlashCommand runs the slash command typed as line, "/id text" (the
// leading slash is optional), and returns its message and error. It fails t
// when the mod has no such slash command.
func RunSlashCommand(t testing.TB, g *sdk.Generated, line string, opts *Options) (string, error) {
	t.Helper()
	opts = withTestLogger(t, opts)
	id, text, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	for _, s := range g.Mod.SlashCommands {
		if s.ID != id {
			continue
		}
		if s.Run == nil {
			t.Fatalf("modtest: slash command %s has no Run function", id)
		}
		return s.Run(callContext(opts), Env(opts), strings.TrimSpace(text))
	}
	t.Fatalf("modtest: mod %s has no slash command %q", modID(g), id)
	return "", nil
}

// RunHooks runs, in order, every hook of g that targets action.Name, as the
// host does before the action, and returns the first error: the reason the
// action is blocked. A command action also matches hooks on
// sdk.ActionCommandRun, and an action on "command:<id>" is named by
// action.Command. Nil means the action may go ahead.
func RunHooks(t testing.TB, g *sdk.Generated, action sdk.Action, opts *Options) error {
	t.Helper()
	opts = withTestLogger(t, opts)
	for _, h := range g.Mod.Hooks {
		if !hookMatches(h.BeforeAction, action) {
			continue
		}
		if h.Run == nil {
			t.Fatalf("modtest: hook on %s has no Run function", h.BeforeAction)
		}
		if err := h.Run(callContext(opts), Env(opts), action); err != nil {
			return err
		}
	}
	return nil
}

func hookMatches(target string, a sdk.Action) bool {
	if target == a.Name {
		return true
	}
	if a.Command == "" {
		return false
	}
	return target == sdk.ActionCommandRun || target == "command:"+a.Command
}

// Activate runs the mod's Activate function, if it has one, as the mod
// process does when it starts, and returns its error.
func Activate(t testing.TB, g *sdk.Generated, opts *Options) error {
	t.Helper()
	if g.Mod.Activate == nil {
		return nil
	}
	opts = withTestLogger(t, opts)
	return g.Mod.Activate(callContext(opts), Env(opts))
}

// Render renders the named tool's custom view for state and returns the
// HTML. It fails t when the tool does not exist, has no custom view, or its
// view fails.
func Render(t testing.TB, g *sdk.Generated, tool string, state sdk.RawViewState) string {
	t.Helper()
	html, err := RenderView(g, tool, state)
	if err != nil {
		t.Fatalf("modtest: %v", err)
	}
	return html
}

// RenderView is Render without a testing.TB.
func RenderView(g *sdk.Generated, tool string, state sdk.RawViewState) (html string, err error) {
	tl, ok := g.Tool(tool)
	if !ok {
		return "", fmt.Errorf("mod %s has no tool %q", modID(g), tool)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("view of %s panicked in phase %s: %v", tool, state.Phase, r)
		}
	}()
	html, has, err := tl.RenderView(state)
	if !has {
		return "", fmt.Errorf("tool %s has no custom view", tool)
	}
	if err != nil {
		return "", fmt.Errorf("view of %s in phase %s: %w", tool, state.Phase, err)
	}
	return html, nil
}

func callContext(opts *Options) context.Context {
	if opts.Context != nil {
		return opts.Context
	}
	return context.Background()
}

package modtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
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
// arguments ("" means none), and returns its message and error, as a mod
// process runs it: a panic is an error naming the command, and a message
// over Options.MaxResultBytes is an error. It fails t when the mod has no
// such command.
func RunCommand(t testing.TB, g *sdk.Generated, id string, args string, opts *Options) (string, error) {
	t.Helper()
	opts = withTestLogger(t, opts)
	if !slices.ContainsFunc(g.Mod.Commands, func(c sdk.Command) bool { return c.ID == id }) {
		t.Fatalf("modtest: mod %s has no command %q", modID(g), id)
	}
	var raw json.RawMessage
	if args != "" {
		raw = json.RawMessage(args)
	}
	return runCommand(t, g, opts, &modapi.CommandRequest{ID: id, Args: raw})
}

// RunSlashCommand runs the slash command typed as line, "/id text" (the
// leading slash is optional), and returns its message and error, as a mod
// process runs it: the handler receives the text without surrounding
// space. It fails t when the mod has no such slash command.
func RunSlashCommand(t testing.TB, g *sdk.Generated, line string, opts *Options) (string, error) {
	t.Helper()
	opts = withTestLogger(t, opts)
	id, text, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	if !slices.ContainsFunc(g.Mod.SlashCommands, func(c sdk.SlashCommand) bool { return c.ID == id }) {
		t.Fatalf("modtest: mod %s has no slash command %q", modID(g), id)
	}
	return runCommand(t, g, opts, &modapi.CommandRequest{ID: id, Slash: true, Text: text})
}

func runCommand(t testing.TB, g *sdk.Generated, opts *Options, req *modapi.CommandRequest) (string, error) {
	t.Helper()
	req.Session = session(opts)
	req.Today = orDefault(opts.Today, DefaultToday)
	req.MaxMessageBytes = maxBytes(opts)
	m, stop := served(t, g, opts)
	defer stop()
	resp, err := m.RunCommand(callContext(opts), req)
	if err != nil {
		return "", err
	}
	if resp.Error != "" {
		return "", errors.New(resp.Error)
	}
	return resp.Message, nil
}

// RunHooks runs every hook of g that targets the action, as a host does
// before it, and returns the first refusal as an error: the reason the
// action is blocked. An action naming a command (action.Command) also runs
// the hooks on sdk.ActionCommandRun and then those on "command:<id>", as a
// host does before a command. Nil means the action may go ahead.
func RunHooks(t testing.TB, g *sdk.Generated, action sdk.Action, opts *Options) error {
	t.Helper()
	opts = withTestLogger(t, opts)
	m, stop := served(t, g, opts)
	defer stop()
	refusal, err := hooks(callContext(opts), m, action, opts)
	if err != nil {
		t.Fatalf("modtest: hooks of mod %s: %v", modID(g), err)
	}
	if refusal != "" {
		return errors.New(refusal)
	}
	return nil
}

// hooks runs the hooks on action through m, in a host's order
// (callflow.HookOrder), and returns the first refusal; an error is the
// confined process's failure.
func hooks(ctx context.Context, m modapi.Mod, action sdk.Action, opts *Options) (string, error) {
	return callflow.Hooks(ctx, action, func(ctx context.Context, a sdk.Action) (string, error) {
		resp, err := m.BeforeAction(ctx, &modapi.ActionRequest{Action: a, Session: session(opts), Today: orDefault(opts.Today, DefaultToday)})
		if err != nil {
			return "", err
		}
		return resp.Refusal, nil
	})
}

// Activate runs the mod's Activate function, if it has one, as the mod
// process does when it starts, and returns its error. As in a host, the
// environment has a date and a logger but no session.
func Activate(t testing.TB, g *sdk.Generated, opts *Options) error {
	t.Helper()
	opts = withTestLogger(t, opts)
	m, stop := served(t, g, opts)
	defer stop()
	resp, err := m.Activate(callContext(opts), &modapi.ActivateRequest{Today: orDefault(opts.Today, DefaultToday)})
	if err != nil {
		return err
	}
	if resp.Error != "" {
		return errors.New(resp.Error)
	}
	return nil
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
func RenderView(g *sdk.Generated, tool string, state sdk.RawViewState) (string, error) {
	if !slices.Contains(modserver.ToolNames(g), tool) {
		return "", fmt.Errorf("mod %s has no tool %q", modID(g), tool)
	}
	resp, _ := modserver.New(g, nil).RenderView(context.Background(), &modapi.ViewRequest{Tool: tool, State: state})
	switch {
	case !resp.HasView:
		return "", fmt.Errorf("tool %s has no custom view", tool)
	case resp.Error != "":
		return "", fmt.Errorf("render view of %s in phase %s: %s", tool, state.Phase, resp.Error)
	}
	return resp.HTML, nil
}

func callContext(opts *Options) context.Context {
	if opts.Context != nil {
		return opts.Context
	}
	return context.Background()
}

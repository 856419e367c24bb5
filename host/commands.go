package host

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// hasHook reports whether m has a hook before action.
func (m *mod) hasHook(action string) bool {
	for _, hk := range m.man.Hooks {
		if hk.BeforeAction == action {
			return true
		}
	}
	return false
}

// runHooks runs the BeforeAction hooks for req.Action in the mods they
// run in (callflow.HookSees; owner is the command's mod). It returns the
// first refusal. A hook that cannot run, or runs past HookTimeout, blocks
// the action.
func (h *Host) runHooks(ctx context.Context, req *modapi.ActionRequest, owner *mod) (string, error) {
	for _, m := range h.mods {
		if !m.hasHook(req.Action.Name) || !callflow.HookSees(req.Action.Name, m == owner) {
			continue
		}
		p, err := m.getCtx(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			if errors.Is(err, ErrUnavailable) || errors.Is(err, ErrClosed) {
				return "", err // says which mod, and why
			}
			return "", fmt.Errorf("hook of mod %s before %s: %w", m.man.ID, req.Action, err)
		}
		req.Run = h.newRun()
		resp, err := bounded(ctx, p, "hook of mod "+m.man.ID+" before "+req.Action.Name, req.CallID, h.opts.HookTimeout,
			func(ctx context.Context) (*modapi.ActionResponse, error) { return p.rpc.BeforeAction(ctx, req) })
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			return "", err
		}
		if resp.Refusal != "" {
			return words.Blocked(m.man.ID, resp.Refusal), nil
		}
	}
	return "", nil
}

// RenderView renders the tool's custom view for one phase of a call, in the
// tool's mod. It returns ErrNoView when the tool has none.
func (h *Host) RenderView(ctx context.Context, toolName string, state sdk.RawViewState) (string, error) {
	t, ok := h.tools[toolName]
	if !ok {
		return "", h.unknownTool(toolName)
	}
	if !t.man.HasView {
		return "", fmt.Errorf("%w: %s", ErrNoView, toolName)
	}
	switch state.Phase {
	case sdk.PhasePreparing, sdk.PhaseRunning, sdk.PhaseCompleted, sdk.PhaseFailed:
	default:
		return "", fmt.Errorf("render view of %s: unknown phase %q", toolName, state.Phase)
	}
	if err := h.requestTooLarge("the view's input and error", len(state.Input)+len(state.Error)); err != nil {
		return "", fmt.Errorf("render view of %s: %w", toolName, err)
	}
	if len(state.Result) > h.opts.MaxResultBytes {
		return "", fmt.Errorf("render view of %s: the result is %d bytes, over the host's limit of %d bytes", toolName, len(state.Result), h.opts.MaxResultBytes)
	}
	p, err := t.mod.getCtx(ctx)
	if err != nil {
		return "", err
	}
	req := &modapi.ViewRequest{Tool: toolName, State: state, Run: h.newRun()}
	resp, err := bounded(ctx, p, "render view of "+toolName, req.CallID, h.opts.ViewTimeout,
		func(ctx context.Context) (*modapi.ViewResponse, error) { return p.rpc.RenderView(ctx, req) })
	if err != nil {
		return "", err
	}
	if !resp.HasView {
		return "", fmt.Errorf("%w: %s", ErrNoView, toolName)
	}
	if resp.Error != "" {
		return "", fmt.Errorf("render view of %s: %s", toolName, resp.Error)
	}
	return resp.HTML, nil
}

// RunCommand runs a command by id with JSON arguments (empty means none),
// after the command.run hooks of every mod and the command's own hooks. It
// returns the command's message for the person.
func (h *Host) RunCommand(ctx context.Context, id string, args json.RawMessage, session sdk.Session) (string, error) {
	ctx = withWorkspace(ctx, session.Workspace)
	m, ok := h.cmds[id]
	if !ok {
		return "", h.unknownCommand(id, false)
	}
	if err := h.requestTooLarge("the arguments", len(args)); err != nil {
		return "", fmt.Errorf("command %s: %w", id, err)
	}
	if len(args) > 0 && !json.Valid(args) {
		return "", fmt.Errorf("command %s: arguments are not valid JSON", id)
	}
	today := h.opts.Today()
	refusal, err := callflow.Hooks(ctx, sdk.Action{Name: manifest.ActionCommandRun, Command: id, Input: args},
		func(ctx context.Context, a sdk.Action) (string, error) {
			return h.runHooks(ctx, &modapi.ActionRequest{Action: a, Session: session, Today: today}, m)
		})
	if err != nil {
		return "", fmt.Errorf("command %s: %w", id, err)
	}
	if refusal != "" {
		return "", fmt.Errorf("command %s: %s", id, refusal)
	}
	return h.runCommand(ctx, m, &modapi.CommandRequest{ID: id, Args: args, Session: session, Today: today})
}

// RunSlashCommand runs a slash command with the text typed after "/id ".
func (h *Host) RunSlashCommand(ctx context.Context, id, text string, session sdk.Session) (string, error) {
	ctx = withWorkspace(ctx, session.Workspace)
	m, ok := h.slash[id]
	if !ok {
		return "", h.unknownCommand(id, true)
	}
	return h.runCommand(ctx, m, &modapi.CommandRequest{ID: id, Slash: true, Text: text, Session: session, Today: h.opts.Today()})
}

func (h *Host) runCommand(ctx context.Context, m *mod, req *modapi.CommandRequest) (string, error) {
	what := "command " + req.ID
	if req.Slash {
		what = "slash command /" + req.ID
	}
	if err := h.requestTooLarge("the text", len(req.Text)); err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	req.MaxMessageBytes = h.opts.MaxResultBytes
	p, err := m.getCtx(ctx)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	req.Run = h.newRun()
	resp, err := bounded(ctx, p, what, req.CallID, h.opts.CommandTimeout,
		func(ctx context.Context) (*modapi.CommandResponse, error) { return p.rpc.RunCommand(ctx, req) })
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("%s: %w", what, ctx.Err())
		}
		return "", err
	}
	// The mod caps the message too; a mod built against another sdk may not.
	if e := cmp.Or(resp.Error, modapi.CapMessage(what, resp.Message, req.MaxMessageBytes)); e != "" {
		return "", fmt.Errorf("%s of mod %s failed: %s", what, m.man.ID, e)
	}
	return resp.Message, nil
}

func (h *Host) unknownCommand(id string, slash bool) error {
	src := h.cmds
	kind := "command"
	if slash {
		src = h.slash
		kind = "slash command"
	}
	names := make([]string, 0, len(src))
	for n := range src {
		names = append(names, n)
	}
	sort.Strings(names)
	if c := closest(id, names, 3); len(c) > 0 {
		return fmt.Errorf("%w: no %s %q; closest: %s", ErrUnknownCommand, kind, id, strings.Join(c, ", "))
	}
	return fmt.Errorf("%w: no %s %q", ErrUnknownCommand, kind, id)
}

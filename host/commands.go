package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/pb"
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

// runHooks runs the BeforeAction hooks for req.Action: host actions go to
// every mod with such a hook, "command:<id>" only to owner. It returns the
// first refusal. A hook that cannot run, or runs past HookTimeout, blocks
// the action.
func (h *Host) runHooks(ctx context.Context, req *pb.BeforeActionRequest, owner *mod) (string, error) {
	req.GraceMillis = h.graceMillis()
	for _, m := range h.mods {
		if !m.hasHook(req.Action) {
			continue
		}
		if strings.HasPrefix(req.Action, "command:") && m != owner {
			continue
		}
		p, err := m.getCtx(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			if errors.Is(err, ErrClosed) {
				return "", err
			}
			return "", fmt.Errorf("hook of mod %s before %s: %w", m.man.ID, req.Action, err)
		}
		req.CallId = h.newCallID()
		resp, err := bounded(ctx, p, "hook of mod "+m.man.ID+" before "+req.Action, req.CallId, h.opts.HookTimeout,
			func(ctx context.Context) (*pb.BeforeActionResponse, error) { return p.rpc.BeforeAction(ctx, req) })
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			return "", err
		}
		if r := resp.GetRefusal(); r != "" {
			return fmt.Sprintf("blocked by a hook of mod %s: %s", m.man.ID, r), nil
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
	p, err := t.mod.getCtx(ctx)
	if err != nil {
		return "", err
	}
	req := &pb.RenderViewRequest{
		Tool: toolName, Phase: string(state.Phase), Input: state.Input, Result: state.Result, Error: state.Error,
		CallId: h.newCallID(), GraceMillis: h.graceMillis(),
	}
	resp, err := bounded(ctx, p, "render view of "+toolName, req.CallId, h.opts.ViewTimeout,
		func(ctx context.Context) (*pb.RenderViewResponse, error) { return p.rpc.RenderView(ctx, req) })
	if err != nil {
		return "", err
	}
	if !resp.GetHasView() {
		return "", fmt.Errorf("%w: %s", ErrNoView, toolName)
	}
	if e := resp.GetError(); e != "" {
		return "", fmt.Errorf("render view of %s: %s", toolName, e)
	}
	return resp.GetHtml(), nil
}

// RunCommand runs a command by id with JSON arguments (empty means none),
// after the command.run hooks of every mod and the command's own hooks. It
// returns the command's message for the person.
func (h *Host) RunCommand(ctx context.Context, id string, args json.RawMessage, session sdk.Session) (string, error) {
	m, ok := h.cmds[id]
	if !ok {
		return "", h.unknownCommand(id, false)
	}
	if len(args) > 0 && !json.Valid(args) {
		return "", fmt.Errorf("command %s: arguments are not valid JSON", id)
	}
	today := h.opts.Today()
	for _, action := range []string{manifest.ActionCommandRun, "command:" + id} {
		refusal, err := h.runHooks(ctx, &pb.BeforeActionRequest{
			Action: action, Command: id, Input: args,
			Session: protocol.SessionToProto(session), Today: today,
		}, m)
		if err != nil {
			return "", fmt.Errorf("command %s: %w", id, err)
		}
		if refusal != "" {
			return "", fmt.Errorf("command %s: %s", id, refusal)
		}
	}
	return h.runCommand(ctx, m, &pb.RunCommandRequest{Id: id, Args: args, Session: protocol.SessionToProto(session), Today: today})
}

// RunSlashCommand runs a slash command with the text typed after "/id ".
func (h *Host) RunSlashCommand(ctx context.Context, id, text string, session sdk.Session) (string, error) {
	m, ok := h.slash[id]
	if !ok {
		return "", h.unknownCommand(id, true)
	}
	return h.runCommand(ctx, m, &pb.RunCommandRequest{Id: id, Slash: true, Text: text, Session: protocol.SessionToProto(session), Today: h.opts.Today()})
}

func (h *Host) runCommand(ctx context.Context, m *mod, req *pb.RunCommandRequest) (string, error) {
	what := "command " + req.Id
	if req.Slash {
		what = "slash command /" + req.Id
	}
	p, err := m.getCtx(ctx)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	req.CallId, req.GraceMillis = h.newCallID(), h.graceMillis()
	resp, err := bounded(ctx, p, what, req.CallId, h.opts.CommandTimeout,
		func(ctx context.Context) (*pb.RunCommandResponse, error) { return p.rpc.RunCommand(ctx, req) })
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("%s: %w", what, ctx.Err())
		}
		return "", err
	}
	if e := resp.GetError(); e != "" {
		return "", fmt.Errorf("%s of mod %s failed: %s", what, m.man.ID, e)
	}
	return resp.GetMessage(), nil
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

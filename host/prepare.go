package host

import (
	"context"
	"encoding/json"
	"fmt"
)

// Check checks input as [Host.Call] does before any hook or handler
// runs, and returns the problems, each "/json/path: what is wrong"; none
// means the input is valid. It runs no hook and starts no mod, so a form
// can show problems before anything runs: the input schema judges it, and
// when the mod's process runs already and has a generated validator for
// the tool, the mod judges it too, with the input type's Validate method.
// Empty input is judged as {}, as a call takes it. An unknown tool is an
// error, as is a running mod that cannot answer.
func (h *Host) Check(ctx context.Context, toolName string, input json.RawMessage) ([]string, error) {
	t, ok := h.tools[toolName]
	if !ok {
		return nil, h.unknownTool(toolName)
	}
	input = inputOrEmpty(input)
	if err := h.requestTooLarge("the input", len(input)); err != nil {
		return []string{"/: " + err.Error()}, nil
	}
	schema, err := t.schema()
	if err != nil {
		return nil, err
	}
	if problems := checkInput(schema, input); len(problems) > 0 {
		return problems, nil
	}
	if p := t.mod.current(ctx); p != nil && p.validates[toolName] {
		return p.checkInput(ctx, toolName, input)
	}
	return nil, nil
}

// Start starts the mod's process now, building it when needed, rather than
// on first use, and returns why it cannot run: a *ModError for a build
// failure or stale generated files. A development server uses it to learn
// of a compiler error as soon as a source changes. It returns at once when
// the mod runs already.
func (h *Host) Start(ctx context.Context, modID string) error {
	for _, m := range h.mods {
		if m.man.ID == modID {
			_, err := m.getCtx(ctx)
			return err
		}
	}
	return fmt.Errorf("start: no loaded mod has id %q", modID)
}

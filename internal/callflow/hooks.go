package callflow

import (
	"strings"

	"github.com/modkit/modkit/sdk"
)

// HookOrder are the actions whose hooks run before action, in order: a
// command (action.Command set) is preceded by the hooks on
// sdk.ActionCommandRun, then by those on "command:<id>"; any other action
// by its own.
func HookOrder(action sdk.Action) []sdk.Action {
	if action.Command == "" {
		return []sdk.Action{action}
	}
	var out []sdk.Action
	if action.Name != sdk.ActionCommandRun && action.Name != "command:"+action.Command {
		out = append(out, action)
	}
	for _, name := range []string{sdk.ActionCommandRun, "command:" + action.Command} {
		a := action
		a.Name = name
		out = append(out, a)
	}
	return out
}

// HookSees reports whether a mod's hook on action runs: a host action's
// hooks run in every mod that has one; "command:<id>" hooks only in the
// command's own mod.
func HookSees(action string, owner bool) bool {
	return owner || !strings.HasPrefix(action, "command:")
}

package dependencies

import (
	"fmt"
	"strings"

	"github.com/modkit/modkit/sdk"
)

// ModulesInput asks for the workspace's Go modules.
type ModulesInput struct {
	// Contains, when set, keeps only the modules whose path contains it.
	Contains string `json:"contains,omitempty" jsonschema:"maxLength=200"`
}

// modulesTool lists the workspace's modules. It runs when no client
// application answers the call itself: a client with the project open (an
// editor, say) knows its modules better, unsaved edits included.
func modulesTool(tc *sdk.ToolContext, in ModulesInput) (sdk.Result, error) {
	root, err := tc.Workspace()
	if err != nil {
		return sdk.Result{}, err
	}
	mods, err := findModules(root)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text(modulesText(mods, in.Contains)), nil
}

// modulesText says which of mods have a path containing contains, one per
// line, with their directories.
func modulesText(mods []module, contains string) string {
	var kept []module
	for _, m := range mods {
		if strings.Contains(m.path, contains) {
			kept = append(kept, m)
		}
	}
	if len(kept) == 0 {
		paths := make([]string, len(mods))
		for i, m := range mods {
			paths[i] = m.path
		}
		return fmt.Sprintf("No module path contains %q; the workspace has %s: %s.",
			contains, count(len(mods), "module", "modules"), strings.Join(paths, ", "))
	}
	var b strings.Builder
	if contains == "" {
		fmt.Fprintf(&b, "The workspace has %s:", count(len(kept), "module", "modules"))
	} else {
		fmt.Fprintf(&b, "Modules whose path contains %q (%d of %d):", contains, len(kept), len(mods))
	}
	for _, m := range kept {
		where := "the workspace root"
		if m.dir != "." {
			where = m.dir
		}
		fmt.Fprintf(&b, "\n- %s in %s", m.path, where)
	}
	return b.String()
}

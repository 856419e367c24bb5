package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ClientActionKind describes one kind of client action: something a tool
// asks the client application to do on the screen, such as opening a file
// at a line. An action travels as {"kind": Kind, "params": {...}}.
type ClientActionKind struct {
	// Kind is the snake_case name the client dispatches on.
	Kind string `json:"kind"`
	// Description says what the client does with the action.
	Description string `json:"description"`
	// ParamsSchema is the JSON Schema (draft 2020-12) of the action's
	// params, an object.
	ParamsSchema json.RawMessage `json:"paramsSchema"`
}

// ClientAction returns the kind of client action named kind, or nil.
func (m *Manifest) ClientAction(kind string) *ClientActionKind {
	for i := range m.ClientActions {
		if m.ClientActions[i].Kind == kind {
			return &m.ClientActions[i]
		}
	}
	return nil
}

// ToolClientActions returns the kinds of client action tool t of m lists,
// in t's order, as copies; a name m does not declare is left out.
func (m *Manifest) ToolClientActions(t Tool) []ClientActionKind {
	var kinds []ClientActionKind
	for _, name := range t.ClientActions {
		if k := m.ClientAction(name); k != nil {
			c := *k
			c.ParamsSchema = bytes.Clone(k.ParamsSchema)
			kinds = append(kinds, c)
		}
	}
	return kinds
}

// validateClientActions checks the kinds of client action and the tools'
// lists of them.
func (v *validator) validateClientActions(m *Manifest) {
	kinds := map[string]int{}
	for i, k := range m.ClientActions {
		entry := entryOf("clientActions", i, k.Kind)
		v.named(clientActionIdent, "clientActions", i, entry, k.Kind, kinds)
		v.described(ruleClientActionDescription, "clientActions", i, "description", entry, k.Description)
		if len(k.ParamsSchema) == 0 {
			v.add(entry, "paramsSchema is missing")
		} else if !isObject(k.ParamsSchema) {
			v.add(entry, "paramsSchema must be a JSON object")
		}
	}
	for i, t := range m.Tools {
		seen := map[string]bool{}
		for k, kind := range t.ClientActions {
			entry := entryOf("tools", i, t.Name)
			if _, ok := kinds[kind]; !ok {
				v.add(entry, fmt.Sprintf("clientActions names kind %q, which the manifest's clientActions do not declare", kind))
			}
			if seen[kind] {
				v.rule(ruleToolActionsOnce, Location{List: "tools", Index: i, Field: "clientActions", Item: k}, entry, fmt.Sprintf("clientActions names kind %q twice", kind))
			}
			seen[kind] = true
		}
	}
}

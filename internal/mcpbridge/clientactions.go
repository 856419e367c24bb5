package mcpbridge

import (
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// MetaClientActions is the _meta key of a completed call's client actions,
// a list of {"kind", "params"}: a client that takes actions reads them
// here, or from the structured content's "clientActions".
const MetaClientActions = "modkit.dev/clientActions"

// actionsOutputSchema returns the output schema of a tool that declares
// client actions: an object with "clientActions", a list of the tool's
// kinds of action, each {"kind": const, "params": its schema}, and for a
// rendered tool "result", the typed result. The result's "$defs" keep
// their names; each kind's are renamed "<kind>.<name>", so that none
// clash.
func actionsOutputSchema(t host.Tool) (json.RawMessage, error) {
	defs := map[string]any{}
	props := map[string]any{}
	required := []string{"clientActions"}
	if len(t.ResultSchema) > 0 {
		var result map[string]any
		if err := json.Unmarshal(t.ResultSchema, &result); err != nil {
			return nil, err
		}
		hoist(result, defs, "")
		props["result"] = result
		required = append(required, "result")
	}
	var variants []any
	for _, k := range t.ClientActionKinds {
		var params map[string]any
		if err := json.Unmarshal(k.ParamsSchema, &params); err != nil {
			return nil, err
		}
		hoist(params, defs, k.Kind+".")
		variants = append(variants, map[string]any{
			"type":        "object",
			"description": k.Description,
			"properties": map[string]any{
				"kind":   map[string]any{"const": k.Kind},
				"params": params,
			},
			"required":             []string{"kind", "params"},
			"additionalProperties": false,
		})
	}
	items := map[string]any{"oneOf": variants}
	if len(variants) == 1 {
		items = variants[0].(map[string]any)
	}
	props["clientActions"] = map[string]any{
		"description": "What the tool asks the client application to do on the screen, in order.",
		"type":        "array",
		"items":       items,
	}
	wrapper := map[string]any{
		"$schema":              "https://json-schema.org/draft/2020-12/schema",
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
	if len(defs) > 0 {
		wrapper["$defs"] = defs
	}
	return json.Marshal(wrapper)
}

// hoist moves a root schema's "$defs" into defs, each name prefixed, and
// makes the references inside the schema and its definitions follow; it
// drops the root's "$schema".
func hoist(root map[string]any, defs map[string]any, prefix string) {
	delete(root, "$schema")
	own, _ := root["$defs"].(map[string]any)
	delete(root, "$defs")
	if prefix != "" {
		renameRefs(root, prefix)
	}
	for name, d := range own {
		if prefix != "" {
			renameRefs(d, prefix)
		}
		defs[prefix+name] = d
	}
}

// renameRefs prefixes the definition name of every "#/$defs/..."
// reference in schema.
func renameRefs(schema any, prefix string) {
	switch s := schema.(type) {
	case map[string]any:
		for k, v := range s {
			if ref, ok := v.(string); ok && k == "$ref" {
				if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
					s[k] = "#/$defs/" + prefix + name
				}
				continue
			}
			renameRefs(v, prefix)
		}
	case []any:
		for _, v := range s {
			renameRefs(v, prefix)
		}
	}
}

// withActions gives a completed call of a tool that declares client
// actions its structured content, {"clientActions": [...]} with the typed
// result as "result", and the actions in _meta under MetaClientActions.
func withActions(out *mcp.CallToolResult, t host.Tool, res *host.CallResult) *mcp.CallToolResult {
	if len(t.ClientActions) == 0 || out.IsError {
		return out
	}
	actions := res.Actions
	if actions == nil {
		actions = []sdk.ClientAction{}
	}
	sc := map[string]any{"clientActions": actions}
	if len(res.Result) > 0 {
		sc["result"] = res.Result
	}
	out.StructuredContent = sc
	out.Meta = mcp.Meta{MetaClientActions: actions}
	return out
}

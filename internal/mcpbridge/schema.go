package mcpbridge

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/manifest"
)

// mcpTool describes t to MCP with the manifest's schemas. wrapped reports
// that the output schema and structured content wrap the result as
// {"result": ...}: the result schema is not an object schema, or the tool
// declares client actions, which go beside it.
func mcpTool(t host.Tool) (mt *mcp.Tool, wrapped bool, err error) {
	in, err := inputSchema(t.InputSchema)
	if err != nil {
		return nil, false, fmt.Errorf("mcp: tool %s of mod %s: input schema: %w", t.Name, t.Mod, err)
	}
	mt = &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: in, Icons: mcpIcons(t.Icons)}
	if a := t.Annotations; a != nil {
		mt.Annotations = &mcp.ToolAnnotations{
			ReadOnlyHint:    a.ReadOnly,
			DestructiveHint: &a.Destructive,
			IdempotentHint:  a.Idempotent,
			OpenWorldHint:   &a.OpenWorld,
		}
	}
	if t.Kind == manifest.KindRendered && len(t.ResultSchema) > 0 {
		out, w, err := outputSchema(t.ResultSchema)
		if err != nil {
			return nil, false, fmt.Errorf("mcp: tool %s of mod %s: result schema: %w", t.Name, t.Mod, err)
		}
		mt.OutputSchema, wrapped = out, w
	}
	if len(t.ClientActionKinds) > 0 {
		out, err := actionsOutputSchema(t)
		if err != nil {
			return nil, false, fmt.Errorf("mcp: tool %s of mod %s: client actions: %w", t.Name, t.Mod, err)
		}
		mt.OutputSchema, wrapped = out, true
	}
	return mt, wrapped, nil
}

// inputSchema returns the manifest's input schema as MCP wants it: an object
// schema. The bytes are kept as they are, unless the root is a "$ref" to an
// object definition (a recursive input type), which gains "type": "object".
func inputSchema(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 {
		return json.RawMessage(`{"type":"object","additionalProperties":false}`), nil
	}
	var root map[string]json.RawMessage
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, err
	}
	switch isObject(root) {
	case objectType:
		return raw, nil
	case objectRef:
		root["type"] = json.RawMessage(`"object"`)
		return json.Marshal(root)
	}
	return nil, fmt.Errorf("root is not an object schema")
}

// outputSchema returns the manifest's result schema as an MCP output schema,
// which must describe an object. Any other schema is wrapped as the single
// property "result", with its "$defs" moved to the wrapper's root so that
// references still resolve.
func outputSchema(raw json.RawMessage) (json.RawMessage, bool, error) {
	var root map[string]json.RawMessage
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, false, err
	}
	switch isObject(root) {
	case objectType:
		return raw, false, nil
	case objectRef:
		root["type"] = json.RawMessage(`"object"`)
		out, err := json.Marshal(root)
		return out, false, err
	}
	wrapper := map[string]any{
		"type":                 "object",
		"required":             []string{"result"},
		"additionalProperties": false,
	}
	for _, k := range []string{"$schema", "$defs"} {
		if v, ok := root[k]; ok {
			wrapper[k] = v
			delete(root, k)
		}
	}
	wrapper["properties"] = map[string]any{"result": root}
	out, err := json.Marshal(wrapper)
	return out, true, err
}

type objectKind int

const (
	notObject objectKind = iota
	objectType
	objectRef
)

// isObject tells whether a schema's root is an object schema, directly or
// through a "$ref" to one of its own "$defs".
func isObject(root map[string]json.RawMessage) objectKind {
	if typeIs(root["type"], "object") {
		return objectType
	}
	var ref string
	if json.Unmarshal(root["$ref"], &ref) != nil {
		return notObject
	}
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok {
		return notObject
	}
	var defs map[string]map[string]json.RawMessage
	if json.Unmarshal(root["$defs"], &defs) != nil {
		return notObject
	}
	name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
	if def, ok := defs[name]; ok && typeIs(def["type"], "object") {
		return objectRef
	}
	return notObject
}

// typeIs reports whether a schema's "type" is exactly want.
func typeIs(raw json.RawMessage, want string) bool {
	var s string
	return json.Unmarshal(raw, &s) == nil && s == want
}

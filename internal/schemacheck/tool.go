package schemacheck

import (
	"encoding/json"
	"fmt"

	"github.com/modkit/modkit/manifest"
)

// ToolInput compiles the input schema of tool t of the mod named modID.
func ToolInput(modID string, t manifest.Tool) (*Schema, error) {
	return compileTool(modID, t.Name, "input", t.InputSchema)
}

// ToolResult compiles the result schema of tool t of the mod named modID,
// for judging a client's typed result.
func ToolResult(modID string, t manifest.Tool) (*Schema, error) {
	return compileTool(modID, t.Name, "result", t.ResultSchema)
}

// compileTool compiles one of a tool's schemas; an error names the mod,
// the tool and which schema.
func compileTool(modID, tool, which string, schema json.RawMessage) (*Schema, error) {
	s, err := Compile("modkit:///"+modID+"/"+tool+"/"+which+".json", schema)
	if err != nil {
		return nil, fmt.Errorf("mod %s: tool %s: %s schema: %v", modID, tool, which, err)
	}
	return s, nil
}

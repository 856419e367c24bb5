package devserver

import (
	"github.com/modkit/modkit/internal/schemaview"
	"github.com/modkit/modkit/manifest"
)

// modViews are the field trees of one mod's schemas, as the page shows
// them: the same view modhost inspect prints.
type modViews struct {
	// Tools maps a tool's name to its input's and result's views.
	Tools map[string]toolViews `json:"tools"`
	// ClientActions maps a kind of client action to its params' view.
	ClientActions map[string]schemaview.View `json:"clientActions"`
}

type toolViews struct {
	Input  schemaview.View  `json:"input"`
	Result *schemaview.View `json:"result,omitempty"`
}

// schemaViews returns the views of every schema of mods, by mod id.
func schemaViews(mods []*manifest.Manifest) map[string]modViews {
	out := make(map[string]modViews, len(mods))
	for _, m := range mods {
		v := modViews{Tools: map[string]toolViews{}, ClientActions: map[string]schemaview.View{}}
		for _, t := range m.Tools {
			tv := toolViews{Input: schemaview.Of(t.InputSchema)}
			if len(t.ResultSchema) > 0 {
				r := schemaview.Of(t.ResultSchema)
				tv.Result = &r
			}
			v.Tools[t.Name] = tv
		}
		for _, k := range m.ClientActions {
			v.ClientActions[k.Kind] = schemaview.Of(k.ParamsSchema)
		}
		out[m.ID] = v
	}
	return out
}

// Package traced is a test-only mod whose tool starts a span of its own,
// as an author would, to show it nests under the host's call.
package traced

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"

	"github.com/modkit/modkit/sdk"
)

// CountInput is the text to count.
type CountInput struct {
	// Text is counted.
	Text string `json:"text"`
}

// Mod is the traced test mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "traced", Description: "A tool that traces its own work."},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[CountInput]{
			Name:        "traced_count",
			Description: "Counts the bytes of a text. Call it to see an author's span.",
			Activity:    "Counting…",
			Run: func(tc *sdk.ToolContext, in CountInput) (sdk.Result, error) {
				_, span := otel.Tracer("traced").Start(tc.Context(), "count bytes")
				span.SetAttributes(attribute.Int("bytes", len(in.Text)))
				span.End()
				return sdk.Text("counted"), nil
			},
		},
	}},
})

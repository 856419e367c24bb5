package modtest

import (
	"testing"

	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest/internal/refusemod"
)

func TestSameValue(t *testing.T) {
	changed := func(change func(m *sdk.Mod)) sdk.Mod {
		m := refusemod.Modkit().Mod
		m.AI.Tools = append([]sdk.Tool(nil), m.AI.Tools...)
		change(&m)
		return m
	}
	tests := []struct {
		name string
		mod  sdk.Mod
		want bool
	}{
		{"the generated copy", refusemod.Modkit().Mod, true},
		{"a changed name", changed(func(m *sdk.Mod) { m.Metadata.DisplayName = "Changed" }), false},
		{"a changed permission", changed(func(m *sdk.Mod) { m.Permissions.Connect = []string{"127.0.0.1:10"} }), false},
		{"a tool with another handler", changed(func(m *sdk.Mod) {
			tool := m.AI.Tools[0].(sdk.PlainTool[refusemod.DialInput])
			tool.Run = func(*sdk.ToolContext, refusemod.DialInput) (sdk.Result, error) { return sdk.Text("stub"), nil }
			m.AI.Tools[0] = tool
		}), false},
		{"a tool less", changed(func(m *sdk.Mod) { m.AI.Tools = m.AI.Tools[:1] }), false},
		{"an equal copy of the tools", changed(func(*sdk.Mod) {}), true},
	}
	for _, tt := range tests {
		if got := sameValue(tt.mod, refusemod.Mod); got != tt.want {
			t.Errorf("%s: got same %v, want %v", tt.name, got, tt.want)
		}
	}
}

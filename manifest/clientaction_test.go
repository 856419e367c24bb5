package manifest

import (
	"encoding/json"
	"strings"
	"testing"
)

// withActions gives the sample's first tool the kind open_file.
func withActions(d map[string]any) {
	d["clientActions"] = []any{map[string]any{
		"kind": "open_file", "description": "Opens a file at a line.",
		"paramsSchema": map[string]any{"type": "object"},
	}}
	item(d, "tools", 0)["clientActions"] = []any{"open_file"}
}

func TestClientActionsDecode(t *testing.T) {
	t.Parallel()
	m, err := Decode(edit(t, withActions))
	if err != nil {
		t.Fatal(err)
	}
	if k := m.ClientAction("open_file"); k == nil || k.Description != "Opens a file at a line." || string(k.ParamsSchema) != `{"type":"object"}` {
		t.Errorf("got kind %+v, want open_file with its description and schema", k)
	}
	if got := m.Tools[0].ClientActions; len(got) != 1 || got[0] != "open_file" {
		t.Errorf("got tool kinds %q, want [open_file]", got)
	}
	if m.ClientAction("close_file") != nil {
		t.Error("got a kind the manifest does not declare")
	}
}

func TestClientActionsRejected(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    func(d map[string]any)
		want string
	}{
		{"undeclared kind", func(d map[string]any) {
			withActions(d)
			item(d, "tools", 0)["clientActions"] = []any{"close_file"}
		}, `tools[0] "research_word_count": clientActions names kind "close_file", which the manifest's clientActions do not declare`},
		{"kind listed twice", func(d map[string]any) {
			withActions(d)
			item(d, "tools", 0)["clientActions"] = []any{"open_file", "open_file"}
		}, `tools[0] "research_word_count": clientActions names kind "open_file" twice`},
		{"duplicate kind", func(d map[string]any) {
			withActions(d)
			d["clientActions"] = append(d["clientActions"].([]any), d["clientActions"].([]any)[0])
		}, `clientActions[1] "open_file": duplicate kind, first at clientActions[0]`},
		{"kind not snake_case", func(d map[string]any) {
			withActions(d)
			item(d, "clientActions", 0)["kind"] = "OpenFile"
			item(d, "tools", 0)["clientActions"] = []any{"OpenFile"}
		}, `clientActions[0] "OpenFile": kind must be snake_case`},
		{"empty description", func(d map[string]any) {
			withActions(d)
			item(d, "clientActions", 0)["description"] = " "
		}, `clientActions[0] "open_file": description is empty`},
		{"schema not an object", func(d map[string]any) {
			withActions(d)
			item(d, "clientActions", 0)["paramsSchema"] = true
		}, `clientActions[0] "open_file": paramsSchema must be a JSON object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(edit(t, tt.f))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestClientActionsClone(t *testing.T) {
	t.Parallel()
	m, err := Decode(edit(t, withActions))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(m)
	c := m.Clone()
	c.ClientActions[0].ParamsSchema[0] = ' '
	c.ClientActions[0].Kind = "changed"
	c.Tools[0].ClientActions[0] = "changed"
	if got, _ := json.Marshal(m); string(got) != string(want) {
		t.Errorf("changing a clone changed the original:\ngot  %s\nwant %s", got, want)
	}
}

func TestToolClientActions(t *testing.T) {
	t.Parallel()
	m, err := Decode(edit(t, withActions))
	if err != nil {
		t.Fatal(err)
	}
	kinds := m.ToolClientActions(m.Tools[0])
	if len(kinds) != 1 || kinds[0].Kind != "open_file" || string(kinds[0].ParamsSchema) != `{"type":"object"}` {
		t.Fatalf("got %+v, want open_file with its schema", kinds)
	}
	kinds[0].ParamsSchema[0] = ' '
	if s := m.ClientActions[0].ParamsSchema; string(s) != `{"type":"object"}` {
		t.Errorf("changing a returned kind changed the manifest's schema to %s", s)
	}
	if kinds := m.ToolClientActions(Tool{Name: "none"}); kinds != nil {
		t.Errorf("got %+v for a tool that lists no kinds, want none", kinds)
	}
}

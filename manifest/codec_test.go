package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/jsondepth"
)

var update = flag.Bool("update", false, "rewrite golden files")

const testHash = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// sample returns a manifest that uses every part of the format.
func sample() *Manifest {
	return &Manifest{
		FormatVersion: FormatVersion,
		ID:            "research",
		DisplayName:   "Research",
		Description:   "Reads and searches the workspace.",
		GoPackage:     "example.com/mods/research",
		SourceHash:    testHash,
		Tools: []Tool{
			{
				Name:        "research_word_count",
				Description: "Counts words. Call this when asked how long a passage is.",
				Activity:    "Counting words…",
				Kind:        KindPlain,
				InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
			},
			{
				Name:         "research_search_workspace",
				Description:  "Searches files. Call this when asked where something is.",
				Activity:     "Searching the workspace…",
				Kind:         KindRendered,
				InputSchema:  json.RawMessage(`{"type":"object"}`),
				ResultSchema: json.RawMessage(`{"type":"object"}`),
				HasView:      true,
			},
		},
		Commands:      []Command{{ID: "research.stats", Title: "Workspace statistics"}},
		SlashCommands: []SlashCommand{{ID: "grep", Description: "Search the workspace."}},
		Hooks: []Hook{
			{BeforeAction: ActionToolCall},
			{BeforeAction: "command:research.stats"},
		},
		Agents: []Agent{{Name: "researcher", Description: "Reads only.", Tools: []string{"research_word_count", "other_mod_tool"}}},
	}
}

func TestEncodeGolden(t *testing.T) {
	t.Parallel()
	got, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "research.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden (run with -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Encode differs from %s (run with -update after review):\ngot:\n%s\nwant:\n%s", golden, got, want)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	t.Parallel()
	want := sample()
	data, err := Encode(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	again, err := Encode(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, data) {
		t.Errorf("re-encoding changed the manifest:\ngot:\n%s\nwant:\n%s", again, data)
	}
	if !reflect.DeepEqual(got.Commands, want.Commands) || !reflect.DeepEqual(got.Agents, want.Agents) {
		t.Errorf("got commands %v agents %v, want %v %v", got.Commands, got.Agents, want.Commands, want.Agents)
	}
}

func TestEncodeEmptyLists(t *testing.T) {
	t.Parallel()
	m := sample()
	m.Tools = nil
	m.Agents = []Agent{{Name: "idle"}}
	data, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"tools": []`)) {
		t.Errorf("got %s, want empty tool arrays rather than null", data)
	}
	if _, err := Decode(data); err != nil {
		t.Errorf("Decode of a mod without tools: got %v, want nil", err)
	}
	if m.Agents[0].Tools != nil {
		t.Errorf("Encode changed its argument: got agent tools %#v, want nil", m.Agents[0].Tools)
	}
}

// edit decodes the sample into generic JSON, applies f and re-encodes it.
func edit(t *testing.T, f func(doc map[string]any)) []byte {
	t.Helper()
	data, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func item(doc map[string]any, list string, i int) map[string]any {
	return doc[list].([]any)[i].(map[string]any)
}

func TestDecodeRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		doc  func(t *testing.T) []byte
		want []string // each must appear in the error
	}{
		{"not json", raw(`{"id":`), []string{"decode manifest:"}},
		{"not an object", raw(`[1,2]`), []string{"got an array, want an object"}},
		{"trailing data", raw(`{} {}`), []string{"data after the manifest"}},
		{"trailing brace", func(t *testing.T) []byte { return append(mod(func(map[string]any) {})(t), '}') },
			[]string{"data after the manifest"}},
		{"trailing bracket", func(t *testing.T) []byte { return append(mod(func(map[string]any) {})(t), "\n]\n"...) },
			[]string{"data after the manifest"}},
		{"unknown top-level field", mod(func(d map[string]any) { d["colour"] = "blue" }),
			[]string{`manifest research: additionalProperties 'colour' not allowed`}},
		{"unknown fields, in order", mod(func(d map[string]any) { d["zeta"], d["alpha"], d["mid"], d["it's"] = 1, 2, 3, 4 }),
			[]string{`manifest research: additionalProperties 'alpha', 'it\'s', 'mid', 'zeta' not allowed`}},
		{"unknown tool field", mod(func(d map[string]any) { item(d, "tools", 1)["icon"] = "x" }),
			[]string{`manifest research: tools[1] "research_search_workspace": additionalProperties 'icon' not allowed`}},
		{"wrong type", mod(func(d map[string]any) { item(d, "tools", 0)["hasView"] = "yes" }),
			[]string{`tools[0] "research_word_count": hasView: expected boolean, but got string`}},
		{"partial annotations", mod(func(d map[string]any) {
			item(d, "tools", 0)["annotations"] = map[string]any{"readOnly": true}
		}), []string{`tools[0] "research_word_count": annotations: missing properties: 'destructive', 'idempotent', 'openWorld'`}},
		{"wrong type of list", mod(func(d map[string]any) { d["commands"] = "research.stats" }),
			[]string{`commands: expected array, but got string`}},
		{"newer major version", mod(func(d map[string]any) { d["formatVersion"] = "2.0"; d["newField"] = 1 }),
			[]string{`manifest research: format version 2.0: newer than this reader (reads 1.x)`}},
		{"malformed version", mod(func(d map[string]any) { d["formatVersion"] = "one" }),
			[]string{`formatVersion: "one" is not MAJOR.MINOR`}},
		{"missing version", mod(func(d map[string]any) { delete(d, "formatVersion") }),
			[]string{`formatVersion: missing`}},
		{"bad tool name", mod(func(d map[string]any) { item(d, "tools", 1)["name"] = "Bad-Name" }),
			[]string{`manifest research: tools[1] "Bad-Name": name must be snake_case`}},
		{"double underscore", mod(func(d map[string]any) { item(d, "tools", 0)["name"] = "word__count" }),
			[]string{`tools[0] "word__count": name must be snake_case`}},
		{"duplicate tool", mod(func(d map[string]any) { item(d, "tools", 1)["name"] = "research_word_count" }),
			[]string{`tools[1] "research_word_count": duplicate tool name, first at tools[0]`}},
		{"empty tool description", mod(func(d map[string]any) { item(d, "tools", 0)["description"] = " " }),
			[]string{`tools[0] "research_word_count": description is empty`}},
		{"missing tool description", mod(func(d map[string]any) { delete(item(d, "tools", 0), "description") }),
			[]string{`tools[0] "research_word_count": description is empty`}},
		{"bad kind", mod(func(d map[string]any) { item(d, "tools", 0)["kind"] = "fancy" }),
			[]string{`tools[0] "research_word_count": kind "fancy" is neither "plain" nor "rendered"`}},
		{"rendered without result schema", mod(func(d map[string]any) { delete(item(d, "tools", 1), "resultSchema") }),
			[]string{`a rendered tool needs a resultSchema`}},
		{"plain with view", mod(func(d map[string]any) { item(d, "tools", 0)["hasView"] = true }),
			[]string{`tools[0] "research_word_count": a plain tool has no view`}},
		{"input schema not an object", mod(func(d map[string]any) { item(d, "tools", 0)["inputSchema"] = true }),
			[]string{`inputSchema must be a JSON object`}},
		{"duplicate command", mod(func(d map[string]any) {
			d["commands"] = append(d["commands"].([]any), map[string]any{"id": "research.stats", "title": "Again"})
		}), []string{`commands[1] "research.stats": duplicate command id, first at commands[0]`}},
		{"empty command title", mod(func(d map[string]any) { item(d, "commands", 0)["title"] = "" }),
			[]string{`commands[0] "research.stats": title is empty`}},
		{"duplicate slash command", mod(func(d map[string]any) {
			d["slashCommands"] = append(d["slashCommands"].([]any), map[string]any{"id": "grep", "description": "Again."})
		}), []string{`slashCommands[1] "grep": duplicate slash command id`}},
		{"empty slash description", mod(func(d map[string]any) { item(d, "slashCommands", 0)["description"] = "" }),
			[]string{`slashCommands[0] "grep": description is empty`}},
		{"unknown host action", mod(func(d map[string]any) { item(d, "hooks", 0)["beforeAction"] = "file.write" }),
			[]string{`hooks[0] "file.write": beforeAction must be one of "tool.call", "command.run" or "command:<id>" of this mod`}},
		{"hook on foreign command", mod(func(d map[string]any) { item(d, "hooks", 1)["beforeAction"] = "command:other.run" }),
			[]string{`hooks[1] "command:other.run": beforeAction names command "other.run", which this mod does not declare`}},
		{"duplicate agent", mod(func(d map[string]any) {
			d["agents"] = append(d["agents"].([]any), map[string]any{"name": "researcher", "tools": []any{}})
		}), []string{`agents[1] "researcher": duplicate agent name, first at agents[0]`}},
		{"bad source hash", mod(func(d map[string]any) { d["sourceHash"] = "md5:abc" }),
			[]string{`sourceHash: "md5:abc" is not sha256:<64 hex digits>`}},
		{"every problem at once", mod(func(d map[string]any) {
			item(d, "tools", 0)["name"] = "Bad"
			item(d, "tools", 1)["description"] = ""
			item(d, "hooks", 0)["beforeAction"] = "nowhere"
		}), []string{`tools[0] "Bad": name must be snake_case`, `tools[1] "research_search_workspace": description is empty`, `hooks[0] "nowhere"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Decode(tt.doc(t))
			if err == nil {
				t.Fatalf("got manifest %+v, want an error", m)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got error:\n%v\nwant it to contain:\n%s", err, w)
				}
			}
		})
	}
}

func raw(s string) func(*testing.T) []byte {
	return func(*testing.T) []byte { return []byte(s) }
}

func mod(f func(map[string]any)) func(*testing.T) []byte {
	return func(t *testing.T) []byte { return edit(t, f) }
}

func TestDecodeAccepts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    func(d map[string]any)
	}{
		{"older minor version", func(d map[string]any) { d["formatVersion"] = "1.0" }},
		{"newer minor version", func(d map[string]any) { d["formatVersion"] = "1.7" }},
		{"agent naming another mod's tool", func(d map[string]any) {
			item(d, "agents", 0)["tools"] = []any{"elsewhere_tool"}
		}},
		{"agent with no tools", func(d map[string]any) { item(d, "agents", 0)["tools"] = []any{} }},
		{"no optional lists", func(d map[string]any) {
			delete(d, "commands")
			delete(d, "slashCommands")
			delete(d, "hooks")
			delete(d, "agents")
		}},
		{"hook on command run", func(d map[string]any) { item(d, "hooks", 0)["beforeAction"] = ActionCommandRun }},
		{"title and annotations", func(d map[string]any) {
			item(d, "tools", 0)["title"] = "Count words"
			item(d, "tools", 0)["annotations"] = map[string]any{"readOnly": false, "destructive": true, "idempotent": false, "openWorld": true}
		}},
		{"no title or annotations", func(d map[string]any) {
			delete(item(d, "tools", 0), "title")
			delete(item(d, "tools", 0), "annotations")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Decode(edit(t, tt.f)); err != nil {
				t.Errorf("got error %v, want nil", err)
			}
		})
	}
}

func TestNewerFormatIsSentinel(t *testing.T) {
	t.Parallel()
	data := edit(t, func(d map[string]any) { d["formatVersion"] = "3.1" })
	_, err := Decode(data)
	if !errors.Is(err, ErrNewerFormat) {
		t.Errorf("got %v, want an error wrapping ErrNewerFormat", err)
	}
}

func TestValidateProblems(t *testing.T) {
	t.Parallel()
	m := sample()
	m.Tools[0].Name = "CountWords"
	m.SlashCommands[0].Description = ""
	err := Validate(m)
	var me *Error
	if !errors.As(err, &me) {
		t.Fatalf("got %v, want *Error", err)
	}
	want := []Problem{
		{Entry: `tools[0] "CountWords"`, Message: "name must be snake_case"},
		{Entry: `slashCommands[0] "grep"`, Message: "description is empty"},
	}
	if !reflect.DeepEqual(plain(me.Problems), want) {
		t.Errorf("got problems %v, want %v", me.Problems, want)
	}
	if got, want := me.Error(), "manifest research: tools[0] \"CountWords\": name must be snake_case\nmanifest research: slashCommands[0] \"grep\": description is empty"; got != want {
		t.Errorf("got message %q, want %q", got, want)
	}
	if err := Validate(sample()); err != nil {
		t.Errorf("Validate(sample): got %v, want nil", err)
	}
}

func TestIsSnakeCase(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want bool
	}{
		{"research_word_count", true},
		{"a", true},
		{"tool2_v3", true},
		{"", false},
		{"Word", false},
		{"word_", false},
		{"_word", false},
		{"word__count", false},
		{"2word", false},
		{"word-count", false},
		{"wörd", false},
	}
	for _, tt := range tests {
		if got := IsSnakeCase(tt.name); got != tt.want {
			t.Errorf("IsSnakeCase(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Load(dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if m.ID != "research" || len(m.Tools) != 2 {
		t.Errorf("got id %q with %d tools, want research with 2", m.ID, len(m.Tools))
	}

	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "load manifest:") {
		t.Errorf("Load of a directory without a manifest: got %v, want a load manifest error", err)
	}

	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, FileName), []byte(`{"id":"x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), FileName+": manifest x:") {
		t.Errorf("Load of a bad manifest: got %v, want the path and the problems", err)
	}
}

func TestSchemaIsValidJSONSchema(t *testing.T) {
	t.Parallel()
	if _, err := compiledSchema(); err != nil {
		t.Fatalf("embedded schema does not compile: %v", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(Schema(), &doc); err != nil {
		t.Fatal(err)
	}
	if got, want := doc["$schema"], "https://json-schema.org/draft/2020-12/schema"; got != want {
		t.Errorf("got $schema %v, want %v", got, want)
	}
}

func FuzzDecode(f *testing.F) {
	data, err := Encode(sample())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"formatVersion":"9.0"}`))
	f.Add([]byte(`{"tools":[{"name":"A"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data)
		if err != nil {
			return
		}
		// Whatever decodes must survive a round trip unchanged.
		out, err := Encode(m)
		if err != nil {
			t.Fatalf("Encode of a decoded manifest: %v", err)
		}
		m2, err := Decode(out)
		if err != nil {
			t.Fatalf("Decode of re-encoded manifest: %v\n%s", err, out)
		}
		out2, err := Encode(m2)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, out2) {
			t.Errorf("round trip changed the manifest:\ngot:\n%s\nwant:\n%s", out2, out)
		}
	})
}

func TestExportedValuesAreCopies(t *testing.T) {
	t.Parallel()
	Schema()[0] = 'x'
	if Schema()[0] != '{' {
		t.Error("changing what Schema returned changed the schema")
	}
	HostActions()[0] = "x"
	if got := HostActions(); got[0] != ActionToolCall {
		t.Errorf("changing what HostActions returned changed it: got %q", got)
	}
}

func TestClone(t *testing.T) {
	t.Parallel()
	m := sample()
	want, _ := Encode(m)
	c := m.Clone()
	c.ID = "changed"
	c.Tools[0].Name = "changed"
	c.Tools[0].InputSchema[0] = ' '
	c.Agents[0].Tools[0] = "changed"
	c.Commands[0].ID = "changed"
	if got, _ := Encode(m); string(got) != string(want) {
		t.Errorf("changing a clone changed the original:\ngot  %s\nwant %s", got, want)
	}
}

// FuzzDecodeDoc checks decodeDoc against encoding/json: what it decodes,
// encoding/json decodes to the same value with nothing after it.
func FuzzDecodeDoc(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e+3,true,false,null,"x\u00e9\n"],"a":{}}`, `[]`, `"\ud800"`, "\"\xff\"", `0`, `-0.0E-1`, `{"k":01}`, `{} x`, `{"a":1,}`, ` {"a" : [ ] } `} {
		f.Add([]byte(s))
	}
	if data, err := os.ReadFile(filepath.Join("testdata", "research.golden.json")); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := decodeDoc(data)
		var want any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		err := dec.Decode(&want)
		rest := []byte(nil)
		if err == nil {
			rest = bytes.Trim(data[dec.InputOffset():], " \t\r\n")
		}
		if !ok {
			if err == nil && len(rest) == 0 && jsondepth.Of(data) <= maxDocDepth {
				t.Fatalf("decodeDoc refused %q, which encoding/json decodes to %v", data, want)
			}
			return
		}
		if err != nil || len(rest) > 0 {
			t.Fatalf("decodeDoc took %q, which encoding/json refuses (%v, %q after it)", data, err, rest)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeDoc(%q) = %#v, encoding/json %#v", data, got, want)
		}
	})
}

package schemacheck

import (
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/manifest"
)

const limitSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1},
    "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50},
    "opts": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/Opts"}]}
  },
  "required": ["query"],
  "additionalProperties": false,
  "$defs": {
    "Opts": {
      "type": "object",
      "properties": {"depth": {"type": "integer", "default": 2}, "tags": {"type": "array", "items": {"type": "string"}}},
      "additionalProperties": false
    }
  }
}`

func compile(t *testing.T) *Schema {
	t.Helper()
	s, err := Compile("mem://limit.json", []byte(limitSchema))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCheck(t *testing.T) {
	s := compile(t)
	allowed := `(allowed: "query", "limit", "opts")`
	tests := []struct {
		input string
		want  []string
	}{
		{`{"query":"x"}`, nil},
		{`{"query":"x","opts":null}`, nil},
		// The number that crashed the library: bounded before it.
		// An integer is held to its own bound, not a 64-bit float's too.
		{`{"query":"DefineMod","limit":1e10000000}`, []string{
			"/limit: must be at most 200, got 1e10000000",
		}},
		// An integer without a bound on its side keeps the float's.
		{`{"query":"x","opts":{"depth":1e400,"tags":[1e400]}}`, []string{
			"/opts/depth: must be at most 1.7976931348623157e308, got 1e400",
			"/opts/tags/0: must be a string, got a number",
			"/opts/tags/0: must be at most 1.7976931348623157e308, got 1e400",
		}},
		{`{"query":"x","limit":-1e400}`, []string{
			"/limit: must be at least 1, got -1e400",
		}},
		// A number written too long is one problem; the library never
		// sees it.
		{`{"query":"x","limit":0.` + strings.Repeat("1", 1<<20) + `}`, []string{
			"/limit: must be a number at most 1000 characters long, got 1048578",
		}},
		{`{"query":` + strings.Repeat("1", 1001) + `}`, []string{
			"/query: must be a string, got a number",
			"/query: must be a number at most 1000 characters long, got 1001",
		}},
		{`{"query":"x","limit":-1e-10000000}`, []string{"/limit: must be an integer, got -1e-10000000"}},
		// An optional struct never invites null.
		{`{"query":"x","opts":{"depth":"deep"}}`, []string{"/opts/depth: must be an integer, got a string"}},
		{`{"query":"x","opts":5}`, []string{"/opts: must be an object, got a number"}},
		{`{"package":5,"zz":1}`, []string{
			`/: unknown property "package" ` + allowed,
			`/: unknown property "zz" ` + allowed,
			`/: missing required property "query"`,
		}},
		{`{"query":"","query":"x","a b":1}`, []string{
			"/query: must be at least 1 character long, got 0",
			`/: duplicate property "query"`,
			`/: unknown property "a b" ` + allowed,
		}},
		{`{"query":`, []string{"/: invalid JSON at byte 9: unexpected end of input"}},
		{strings.Repeat("[", 10001), []string{"/: invalid JSON at byte 10001: nested deeper than 10000 levels"}},
	}
	for _, tt := range tests {
		if got := s.Check([]byte(tt.input)); !slices.Equal(got, tt.want) {
			t.Errorf("Check(%.60s):\ngot  %q\nwant %q", tt.input, got, tt.want)
		}
	}
}

func TestWithDefaults(t *testing.T) {
	s := compile(t)
	tests := []struct{ input, want string }{
		{`{"query":"x"}`, `{"limit":50,"query":"x"}`},
		{`{"query":"x","limit":7}`, `{"query":"x","limit":7}`},
		{`{"query":"x","limit":7,"opts":{}}`, `{"limit":7,"opts":{"depth":2},"query":"x"}`},
		{`{"query":"x","limit":7,"opts":null}`, `{"query":"x","limit":7,"opts":null}`},
	}
	for _, tt := range tests {
		if got := string(s.WithDefaults([]byte(tt.input))); got != tt.want {
			t.Errorf("WithDefaults(%s) = %s, want %s", tt.input, got, tt.want)
		}
	}
}

func TestToolSchemas(t *testing.T) {
	tool := manifest.Tool{Name: "t", InputSchema: []byte(`{"type":"object"}`), ResultSchema: []byte(`{"type":"nope"}`)}
	if _, err := ToolInput("m", tool); err != nil {
		t.Errorf("input schema: %v", err)
	}
	_, err := ToolResult("m", tool)
	if err == nil || !strings.HasPrefix(err.Error(), "mod m: tool t: result schema: ") {
		t.Errorf("got %v, want an error naming the mod, the tool and the result schema", err)
	}
}

// TestChoiceOfConsts: a value outside a choice written as branches of
// const values (a form's titled options) is refused naming the allowed
// values, as an enum's is.
func TestChoiceOfConsts(t *testing.T) {
	s, err := Compile("mem://choice.json", []byte(`{"type":"object","properties":{
		"level":{"type":"string","oneOf":[{"const":"low","title":"Low"},{"const":"high","title":"High"}]},
		"size":{"anyOf":[{"const":1},{"const":2}]},
		"only":{"const":"this"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := s.Check([]byte(`{"level":"pink","size":3,"only":"that"}`))
	want := []string{`/level: must be one of "low", "high", got "pink"`, `/size: must be one of 1, 2, got 3`, `/only: must be one of "this", got "that"`}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

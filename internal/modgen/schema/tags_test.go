package schema

import (
	"reflect"
	"testing"
)

func TestParseTag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tag     string
		want    parsedTag
		wantErr string
	}{
		{tag: "minimum=1,maximum=10", want: parsedTag{items: []tagItem{{"minimum", "1"}, {"maximum", "10"}}}},
		{tag: "required,minLength=2,the name, in full", want: parsedTag{required: true, items: []tagItem{{"minLength", "2"}}, description: "the name, in full"}},
		{tag: "optional", want: parsedTag{optional: true}},
		{tag: "enum,The month it is due", want: parsedTag{enum: true, description: "The month it is due"}},
		{tag: `pattern="^[a-z]{1,3}$",format=email`, want: parsedTag{items: []tagItem{{"pattern", "^[a-z]{1,3}$"}, {"format", "email"}}}},
		{tag: "enum=a,enum=b,Pick one", want: parsedTag{items: []tagItem{{"enum", "a"}, {"enum", "b"}}, description: "Pick one"}},
		{tag: "Just words = fine", want: parsedTag{description: "Just words = fine"}},
		{tag: "minimun=1", wantErr: `unknown jsonschema tag key "minimun": want one of default, enum, exclusiveMaximum, exclusiveMinimum, format, maxItems, maxLength, maxProperties, maximum, minItems, minLength, minProperties, minimum, multipleOf, pattern, uniqueItems, x-mcp-header, or the bare keywords required, optional and enum`},
		{tag: "x-mcp-header=Region,the region", want: parsedTag{items: []tagItem{{"x-mcp-header", "Region"}}, description: "the region"}},
		{tag: "maxProperties=10", want: parsedTag{items: []tagItem{{"maxProperties", "10"}}}},
		{tag: "required,optional", wantErr: "jsonschema tag says both required and optional"},
		{tag: `pattern="abc`, wantErr: `jsonschema tag key pattern: bad quoted value: invalid syntax`},
	}
	for _, tt := range tests {
		got, err := parseTag(tt.tag)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("parseTag(%q): got error %v, want %q", tt.tag, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseTag(%q): got error %v", tt.tag, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseTag(%q): got %+v, want %+v", tt.tag, got, tt.want)
		}
	}
}

func TestApply(t *testing.T) {
	t.Parallel()
	tests := []struct {
		typ     string
		item    tagItem
		wantErr string
	}{
		{"string", tagItem{"minimum", "1"}, "minimum applies to number values, not string"},
		{"integer", tagItem{"minLength", "1"}, "minLength applies to string values, not integer"},
		{"array", tagItem{"maxItems", "-1"}, "maxItems=-1: want a non-negative integer"},
		{"string", tagItem{"pattern", "("}, "pattern \"(\": error parsing regexp: missing closing ): `(`"},
		{"string", tagItem{"format", "ipv4"}, `format "ipv4": want date-time, date, email, uri or uuid`},
		{"integer", tagItem{"enum", "1.5"}, "enum=1.5: want an integer"},
		{"number", tagItem{"multipleOf", "0"}, "multipleOf=0: want a number greater than 0"},
		{"integer", tagItem{"minimum", "5"}, ""},
		{"string", tagItem{"x-mcp-header", "Region"}, ""},
		{"boolean", tagItem{"x-mcp-header", "Dry-Run"}, ""},
		{"string", tagItem{"x-mcp-header", "Re gion"}, "x-mcp-header=Re gion: want a header name of letters, digits and '-'"},
		{"array", tagItem{"x-mcp-header", "Tags"}, "x-mcp-header applies to string, number and boolean fields only"},
	}
	for _, tt := range tests {
		s := &Schema{Type: tt.typ}
		err := apply(s, tt.item)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.wantErr {
			t.Errorf("apply(%s, %v): got error %q, want %q", tt.typ, tt.item, got, tt.wantErr)
		}
	}
}

package schematest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// TestIntegerBoundsWithoutFormats: a validator that ignores "format", as
// most do, refuses every integer the generated validator refuses for its
// Go type's range: the schema states each integer's bounds, 64-bit ones
// too, as well as its format.
func TestIntegerBoundsWithoutFormats(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "Sizes.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020 // formats are not asserted
	if err := c.AddResource("mem://Sizes.json", bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	plain, err := c.Compile("mem://Sizes.json")
	if err != nil {
		t.Fatal(err)
	}
	valid := `{"i8":0,"i16":0,"i32":0,"i64":0,"u":0,"u8":0,"u16":0,"u32":0,"u64":0,"f32":0,"f64":0}`
	for _, c := range []struct{ field, value string }{
		{"i64", "9223372036854775808"}, {"i64", "-9223372036854775809"}, {"i64", "1e400"},
		{"u", "18446744073709551616"}, {"u", "-1"}, {"u64", "1e400"}, {"u64", "18446744073709551616"},
		{"i32", "2147483648"},
	} {
		var doc map[string]json.RawMessage
		json.Unmarshal([]byte(valid), &doc)
		doc[c.field] = json.RawMessage(c.value)
		input, _ := json.Marshal(doc)
		if problems := validate("Sizes", input); len(problems) == 0 {
			t.Errorf("%s=%s: the generated validator accepts it, want it refused", c.field, c.value)
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(input))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if err := plain.Validate(v); err == nil {
			t.Errorf("%s=%s: a validator that ignores formats accepts it under the schema, want it refused as the generated validator does", c.field, c.value)
		}
	}
}

package schematest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/modkit/modkit/internal/jsontree"
	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/jsoncheck"
)

// checks maps each root to its generated validator.
var checks = map[string]func(*jsoncheck.Checker){
	"Everything":  checkEverything,
	"Constraints": checkConstraints,
	"Node":        checkNode,
	"ItemPage":    checkItemPage,
	"Search":      checkSearch,
	"Sizes":       checkSizes,
	"Color":       checkColor,
	"Level":       checkLevel,
	"Wire":        checkWire,
	"Owned":       checkOwned,
	"Contact":     checkContact,
}

// validate runs the generated validator of root on data.
func validate(root string, data []byte) []string {
	c := jsoncheck.New(data)
	defer c.Release()
	checks[root](c)
	c.End()
	return slices.Clone(c.Problems())
}

// decoders maps each root to its generated InputDecoder.
var decoders = map[string]func([]byte) (any, error){
	"Everything":  decodeEverything,
	"Constraints": decodeConstraints,
	"Node":        decodeNode,
	"ItemPage":    decodeItemPage,
	"Search":      decodeSearch,
	"Sizes":       decodeSizes,
	"Color":       decodeColor,
	"Level":       decodeLevel,
	"Wire":        decodeWire,
	"Owned":       decodeOwned,
	"Contact":     decodeContact,
}

// decode runs a generated decoder and asserts its result's type.
func decode[T any](dec func([]byte) (any, error), data []byte) (T, error) {
	v, err := dec(data)
	if err != nil {
		var zero T
		return zero, err
	}
	return v.(T), nil
}

// compiled returns the reference validator for a root's golden schema.
func compiled(t testing.TB, root string) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", root+".schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.AssertContent = true
	// The Go ranges of 64-bit integers and floats are formats the
	// convention defines; the rest are JSON Schema's own.
	for _, f := range []string{"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float", "double"} {
		c.Formats[f] = func(v any) bool { return jsontree.FormatValue(f, v) }
	}
	url := "mem://" + root + ".json"
	if err := c.AddResource(url, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compile %s schema: %v", root, err)
	}
	return s
}

func TestSchemasCompile(t *testing.T) {
	for _, root := range roots {
		compiled(t, root)
	}
}

// problemCases are inputs with the problems the generated validators
// report.
var problemCases = []struct {
	root  string
	input string
	want  []string
}{
	{"Search", `{"query":"x","options":{"caseSensitive":true,"context":2}}`, nil},
	{"Search", `{"query":"","limit":800,"options":{"caseSensitive":true,"context":2}}`, []string{
		"/query: must be at least 1 character long, got 0",
		"/limit: must be at most 500, got 800",
	}},
	{"Search", `{"Query":"x","options":{}}`, []string{
		`/: unknown property "Query" (allowed: "query", "paths", "limit", "regex", "since", "kinds", "options")`,
		`/options: missing required property "caseSensitive"`,
		`/options: missing required property "context"`,
		`/: missing required property "query"`,
	}},
	{"Search", `[]`, []string{"/: must be an object, got an array"}},
	// Constraints on a struct as a whole: anyRequired and if/then/else.
	{"Contact", `{"contactMethod":"email","email":"a@b"}`, nil},
	{"Contact", `{"contactMethod":"phone","phone":"1","address":{"city":"x"}}`, nil},
	{"Contact", `{"name":"x"}`, []string{
		`/: missing one of the properties "phone" or "email"`,
		`/: missing required property "email"`,
	}},
	{"Contact", `{"contactMethod":"phone","email":"a@b"}`, []string{`/: missing required property "phone"`}},
	{"Contact", `{"contactMethod":"fax","phone":"1"}`, []string{
		`/contactMethod: must be one of "phone", "email", got "fax"`,
		`/: missing required property "email"`,
	}},
	{"Contact", `{"phone":"1","backup":{"level":2}}`, []string{
		`/backup: missing one of the properties "a", "b" or "c"`,
		`/backup: missing one of the properties "d" or "e"`,
		`/backup: missing required property "a"`,
		`/backup: missing required property "d"`,
		`/: missing required property "email"`,
	}},
	{"Contact", `{"email":"e","backup":{"level":2.0,"a":null,"d":"x","through":{"urgent":false}}}`, []string{
		`/backup/through: missing required property "note"`,
	}},
	{"Search", `{"query":"a","kinds":["text","pdf"],"since":"yesterday","options":{"caseSensitive":false,"context":1.5}}`, []string{
		`/kinds/1: must be one of "text", "code", "doc", got "pdf"`,
		`/since: must be an RFC 3339 date-time such as 2026-05-01T12:00:00Z, got "yesterday"`,
		"/options/context: must be an integer, got 1.5",
	}},
	{"Search", `{"query":"a","query":"b","options":{"caseSensitive":false,"context":1}}`, []string{`/: duplicate property "query"`}},
	{"Search", `{"query":"a",`, []string{"/: invalid JSON at byte 13: unexpected end of input"}},
	{"Search", `{"query":"a","options":{"caseSensitive":false,"context":1}} x`, []string{"/: invalid JSON at byte 60: unexpected data after the top-level value"}},
	{"Constraints", `{"score":1,"step":7,"limit":0,"name":"ééééééééé","code":"abc","tags":["a","a"],"mode":"medium","half":0.7,"percent":5,"email":"x","site":"/rel","uuid":"1234","day":"2026-02-30","at":"2026-01-01T10:00:00"}`, []string{
		"/score: must be less than 1, got 1",
		"/step: must be a multiple of 5, got 7",
		"/limit: must be at least 1, got 0",
		"/name: must be at most 8 characters long, got 9",
		`/code: must match the pattern "^[A-Z]{2,3}$", got "abc"`,
		"/tags: items must be unique, but items 0 and 1 are equal",
		`/mode: must be one of "fast", "slow", got "medium"`,
		"/half: must be a multiple of 0.5, got 0.7",
		"/percent: must be one of 0, 50, 100, got 5",
		"/email: must be an email address, got \"x\"",
		"/site: must be an absolute URI such as https://example.com/x, got \"/rel\"",
		"/uuid: must be a UUID such as 123e4567-e89b-12d3-a456-426614174000, got \"1234\"",
		"/day: must be a date such as 2026-05-01, got \"2026-02-30\"",
		"/at: must be an RFC 3339 date-time such as 2026-05-01T12:00:00Z, got \"2026-01-01T10:00:00\"",
	}},
	{"Node", `{"name":"a","children":[{"name":"b","parent":null,"children":[{"nam":"c"}]}]}`, []string{
		`/children/0/children/0: unknown property "nam" (allowed: "name", "children", "parent")`,
		`/children/0/children/0: missing required property "name"`,
	}},
	{"Node", `{"name":"a","children":[{"name":"b"}],"a~b/c":1}`, []string{`/: unknown property "a~b/c" (allowed: "name", "children", "parent")`}},
	{"ItemPage", `{"items":[{"title":"","level":"high"},{"title":"abcdefghijklmnopqrstu"}],"next":7}`, []string{
		"/items/0/title: must be at least 1 character long, got 0",
		"/items/0/level: must be an integer, got a string",
		"/items/1/title: must be at most 20 characters long, got 21",
		"/next: must be a string, got a number",
	}},
	{"Sizes", `{"i8":128,"i16":-32769,"i32":1e10,"i64":9223372036854775808,"u":-1,"u8":256,"u16":65536,"u32":4294967296,"u64":18446744073709551616,"f32":null,"f64":"1"}`, []string{
		"/i8: must be at most 127, got 128",
		"/i16: must be at least -32768, got -32769",
		"/i32: must be at most 2147483647, got 1e10",
		"/i64: must be at most 9223372036854775807, got 9223372036854775808",
		"/u: must be at least 0, got -1",
		"/u8: must be at most 255, got 256",
		"/u16: must be at most 65535, got 65536",
		"/u32: must be at most 4294967295, got 4294967296",
		"/u64: must be at most 18446744073709551615, got 18446744073709551616",
		"/f32: must be a number, got null",
		"/f64: must be a number, got a string",
	}},
	{"Color", `"green"`, nil},
	{"Level", `4`, []string{"/: must be one of 1, 2, 3, got 4"}},
	{"Level", `2.0`, nil},
	{"Wire", `{"budget":5000000000,"month":13,"mode":420,"state":7}`, nil},
	{"Wire", `{"budget":1,"month":1,"mode":1,"state":0,"due":13}`, []string{"/due: must be one of 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, got 13"}},
	{"Wire", `{"budget":1.5,"month":1,"mode":-1,"state":0,"settle":"2026-01-02T15:04:05z","labels":{},"point":[1,"x",1e309],"big":"9223372036854775808"}`, []string{
		"/budget: must be an integer, got 1.5",
		"/mode: must be at least 0, got -1",
		`/settle: must be an RFC 3339 date-time such as 2026-05-01T12:00:00Z, got "2026-01-02T15:04:05z"`,
		"/labels: must have at least 1 property, got 0",
		"/point/1: must be a number, got a string",
		"/point/2: must be at most 1.7976931348623157e308, got 1e309",
		`/big: must be at most 9223372036854775807, got "9223372036854775808"`,
	}},
	{"Wire", `{"budget":1,"month":1,"mode":1,"state":0,"settle":"2026-12-31T23:59:60Z","labels":{"a":"","b":"","c":"","d":""},"big":"-9223372036854775809"}`, []string{
		`/settle: must be an RFC 3339 date-time such as 2026-05-01T12:00:00Z, got "2026-12-31T23:59:60Z"`,
		"/labels: must have at most 3 properties, got 4",
		`/big: must be at least -9223372036854775808, got "-9223372036854775809"`,
	}},
	{"Wire", `{"budget":1,"month":1,"mode":1,"state":0,"settle":"2026-01-02T15:04:05\u005a"}`, []string{
		`/settle: must be an RFC 3339 date-time such as 2026-05-01T12:00:00Z written without escapes, got "2026-01-02T15:04:05\u005a"`,
	}},
	{"Search", `{"query":5,"limit":1e10000000,`, []string{"/: invalid JSON at byte 30: unexpected end of input"}},
	// An integer beyond a 64-bit float is held to its own bound alone.
	{"Search", `{"query":"x","limit":1e10000000,"options":{"caseSensitive":true,"context":0}}`, []string{
		"/limit: must be at most 500, got 1e10000000",
	}},
	{"Sizes", `{"i8":1e400,"i16":0,"i32":0,"i64":-1e400,"u":0,"u8":0,"u16":0,"u32":0,"u64":1e400,"f32":0,"f64":1e400}`, []string{
		"/i8: must be at most 127, got 1e400",
		"/i64: must be at least -9223372036854775808, got -1e400",
		"/u64: must be at most 18446744073709551615, got 1e400",
		"/f64: must be at most 1.7976931348623157e308, got 1e400",
	}},
	// A number written too long is one problem, judged no further.
	{"Search", `{"query":"x","limit":` + strings.Repeat("9", 1001) + `,"options":{"caseSensitive":true,"context":0}}`, []string{
		"/limit: must be a number at most 1000 characters long, got 1001",
	}},
	{"Search", `{"query":"x","limit":` + strings.Repeat("9", 1000) + `,"options":{"caseSensitive":true,"context":0}}`, []string{
		"/limit: must be at most 500, got " + strings.Repeat("9", 100) + "…",
	}},
	{"Search", `{"query":"x","limit":0.` + strings.Repeat("5", 2000) + `,"options":{"caseSensitive":true,"context":0}}`, []string{
		"/limit: must be a number at most 1000 characters long, got 2002",
	}},
	{"Search", `{"query":-` + strings.Repeat("1", 1000) + `,"options":{"caseSensitive":true,"context":0}}`, []string{
		"/query: must be a string, got a number",
		"/query: must be a number at most 1000 characters long, got 1001",
	}},
	{"Sizes", `{"i8":0,"i16":0,"i32":0,"i64":0,"u":0,"u8":0,"u16":0,"u32":0,"u64":0,"f32":1e-` + strings.Repeat("0", 1000) + `1,"f64":0}`, []string{
		"/f32: must be a number at most 1000 characters long, got 1004",
	}},
}

func TestProblems(t *testing.T) {
	for _, tt := range problemCases {
		t.Run(tt.root+" "+tt.input, func(t *testing.T) {
			got := validate(tt.root, []byte(tt.input))
			if !slices.Equal(got, tt.want) {
				t.Errorf("got problems\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

// TestOwnDecoders: a type's own decoder that fails with an error of
// encoding/json, strconv or time, wrapped or not, is worded in JSON terms
// at its property, never in Go's.
func TestOwnDecoders(t *testing.T) {
	for _, tt := range []struct {
		input string
		want  []string
	}{
		{`{"age":"John","day":"2026-05-01","op":"x"}`, []string{`/age: must be an integer, got "John"`}},
		{`{"age":"99999999999999999999","day":"2026-05-01","op":"x"}`, []string{`/age: must be an integer in range, got "99999999999999999999"`}},
		{`{"age":"7","day":"May 1st","op":5}`, []string{
			`/day: must be a date such as 2026-05-01, got "May 1st"`,
			"/op: must be a string, got a number",
		}},
		{`{"age":"7","day":"2026-05-01","op":"x"}`, nil},
	} {
		if p := validate("Owned", []byte(tt.input)); len(p) != 0 {
			t.Fatalf("%s: the check pass found %q, want none (the types judge)", tt.input, p)
		}
		_, err := decoders["Owned"]([]byte(tt.input))
		if got := problemsOf(err); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.input, got, tt.want)
		}
	}
}

func TestDecode(t *testing.T) {
	in := `{"query":"go","limit":2.0E1,"kinds":["code"],"since":"2026-01-02T03:04:05Z","options":{"caseSensitive":true,"context":1e0}}`
	got, err := decode[Search](decodeSearch, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got.Limit != 20 || got.Options.Context != 1 || got.Query != "go" || got.Since == nil || got.Kinds[0] != KindCode {
		t.Errorf("got %+v, want limit 20, context 1, query go, a since time and kind code", got)
	}
	_, err = decode[Search](decodeSearch, []byte(`{"limit":0}`))
	var ie *sdk.InputError
	if !errors.As(err, &ie) || len(ie.Problems) != 3 {
		t.Errorf("got error %v, want an *sdk.InputError with 3 problems", err)
	}
	e, err := decode[Everything](decodeEverything, []byte(`{"id":"i","nested":{"inner":"n"},"shadowed":"s","Plain":"p","renamed":"r","-":"d","zero":0,"forced":null,"quoted":"-42","when":"2026-01-02T03:04:05Z","blob":"aGk=","raw":[1,2],"anything":{"x":1},"up":"abc","op":"secret","color":"red","level":3,"free":"f","counts":{"a":1},"byId":{"7":"seven"},"pair":[1,2],"items":[{"title":"t"}],"maybeItem":null}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Everything{Base: Base{ID: "i"}, Nested: Nested{Inner: "n"}, Shadowed: "s", Plain: "p", Renamed: "r", Dash: "d",
		Quoted: -42, Blob: []byte("hi"), Raw: json.RawMessage(`[1,2]`), Anything: map[string]any{"x": float64(1)}, Up: "ABC",
		Op: Opaque{Secret: "secret"}, Color: Red, Level: High, Free: "f", Counts: map[string]uint16{"a": 1},
		ByID: map[int]string{7: "seven"}, Pair: [2]int8{1, 2}, Items: []Item{{Title: "t"}}}
	want.When = e.When
	if !reflect.DeepEqual(e, want) {
		t.Errorf("got %+v\nwant %+v", e, want)
	}
}

// comparable reports whether data suits the differential check: valid
// JSON, no duplicate keys (the validator rejects them, JSON Schema keeps
// the last), and no absurd exponents.
func comparable(data []byte) bool {
	if !json.Valid(data) || len(data) > 4096 {
		return false
	}
	for i := 0; i+4 < len(data); i++ {
		if (data[i] == 'e' || data[i] == 'E') && bytes.IndexFunc(data[i+1:min(i+6, len(data))], func(r rune) bool { return r < '0' || r > '9' }) < 0 && data[i-1] >= '0' && data[i-1] <= '9' {
			return false
		}
	}
	return !hasDuplicateKeys(json.NewDecoder(bytes.NewReader(data)))
}

func hasDuplicateKeys(dec *json.Decoder) bool {
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, _ := dec.Token()
			if seen[k.(string)] {
				return true
			}
			seen[k.(string)] = true
			if hasDuplicateKeys(dec) {
				return true
			}
		}
		dec.Token()
	case json.Delim('['):
		for dec.More() {
			if hasDuplicateKeys(dec) {
				return true
			}
		}
		dec.Token()
	}
	return false
}

// differ reports a disagreement between the generated validator and
// jsonschema on data, or "".
func differ(ref *jsonschema.Schema, root string, data []byte) string {
	problems := validate(root, data)
	if !comparable(data) {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return ""
	}
	refErr := ref.Validate(v)
	if len(problems) > 0 && refErr == nil {
		// Only what encoding/json cannot decode may be refused beyond the
		// schema: a time.Time Go does not parse, for one.
		if err := json.Unmarshal(data, reflect.New(goTypes[root]).Interface()); err == nil {
			return fmt.Sprintf("%s %s: generated validator says %q, jsonschema and encoding/json accept it", root, data, problems)
		}
		return ""
	}
	if len(problems) == 0 && refErr != nil {
		return fmt.Sprintf("%s %s: generated validator accepts it, jsonschema says %v", root, data, refErr)
	}
	if refErr == nil {
		return differDecode(root, data)
	}
	return ""
}

// goTypes are the Go types of the roots.
var goTypes = map[string]reflect.Type{
	"Everything":  reflect.TypeFor[Everything](),
	"Constraints": reflect.TypeFor[Constraints](),
	"Node":        reflect.TypeFor[Node](),
	"ItemPage":    reflect.TypeFor[ItemPage](),
	"Search":      reflect.TypeFor[Search](),
	"Sizes":       reflect.TypeFor[Sizes](),
	"Color":       reflect.TypeFor[Color](),
	"Level":       reflect.TypeFor[Level](),
	"Wire":        reflect.TypeFor[Wire](),
	"Owned":       reflect.TypeFor[Owned](),
}

// differDecode compares the generated decoder with encoding/json on valid
// input, by the JSON each result encodes to: what the validator accepts
// must decode.
func differDecode(root string, data []byte) string {
	got, err := decoders[root](data)
	if err != nil {
		// Types that decode themselves may refuse what the schema
		// allows, as they do under encoding/json.
		if json.Unmarshal(fallbackOf(root).WithDefaults(data), reflect.New(goTypes[root]).Interface()) != nil {
			return ""
		}
		return fmt.Sprintf("%s %s: generated decoder failed on valid input: %v", root, data, err)
	}
	want := reflect.New(reflect.TypeOf(got))
	// Defaults are filled in by both: the generated decoder, and the
	// host's fallback before encoding/json decodes.
	data = fallbackOf(root).WithDefaults(data)
	if err := json.Unmarshal(data, want.Interface()); err != nil {
		if bytes.ContainsAny(data, ".eE") {
			return "" // encoding/json refuses what JSON Schema calls an integer: 5.0
		}
		return fmt.Sprintf("%s %s: the validator accepts it, encoding/json fails: %v", root, data, err)
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want.Elem().Interface())
	if !bytes.Equal(g, w) {
		return fmt.Sprintf("%s %s: generated decoder gives %s, encoding/json gives %s", root, data, g, w)
	}
	return ""
}

// seeds are inputs near each root's boundaries.
var seeds = []string{
	`{"age":"John","day":"May 1st","op":5}`, `{"age":"1e3","day":"2026-02-30","op":[1]}`,
	`{}`, `null`, `[]`, `"red"`, `1`, `2.0`, `-0`, `1e2`, `"x"`,
	`{"query":"x","options":{"caseSensitive":true,"context":2}}`,
	`{"query":"find me","paths":["a","b"],"limit":50,"regex":true,"since":"2026-01-02T03:04:05.5+01:00","kinds":["text","doc"],"options":{"caseSensitive":false,"context":10,"exclude":["vendor"]}}`,
	`{"score":0.5,"step":10,"limit":3,"name":"ab","code":"AB","tags":["x"],"mode":"fast","email":"a@b.co","site":"https://x.y/z","uuid":"123e4567-e89b-12d3-a456-426614174000","day":"2024-02-29","at":"2026-12-31T23:59:60Z","percent":50,"half":1.5}`,
	`{"score":0,"step":5,"limit":50,"name":"abcdefgh","code":"XYZ","tags":["x","y","z"],"mode":"slow","flag":null,"on":"true","ratio":"-1.5e3","count":"7","origin":"here"}`,
	`{"score":0,"step":5,"limit":50,"name":"ab","code":"XY","tags":["x"],"mode":"slow","flag":2,"on":"yes","ratio":"1.","count":null,"origin":"far too long here"}`,
	`{"name":"a","children":[{"name":"b","parent":{"name":"c"}}]}`,
	`{"items":[{"title":"t","level":2}],"next":null}`,
	`{"i8":-128,"i16":32767,"i32":0,"i64":-9223372036854775808,"u":0,"u8":255,"u16":0,"u32":4294967295,"u64":18446744073709551615,"f32":1.5,"f64":-2e-3}`,
	`{"budget":5000000000,"month":13,"mode":420,"state":7,"settle":"2026-01-02T15:04:05.5+01:00","labels":{"a":"b"},"point":[1,2.5,-3],"big":"-42","retries":2}`,
	`{"budget":1,"month":1,"mode":1,"state":0,"settle":"2026-01-02t15:04:05Z","big":"9223372036854775807"}`,
	`{"id":"i","nested":{"inner":"n"},"shadowed":"s","Plain":"p","renamed":"r","-":"d","zero":0,"forced":null,"quoted":"-42","when":"2026-01-02T03:04:05Z","blob":"aGk=","raw":[1,2],"anything":{"x":1},"up":"abc","op":"secret","color":"red","level":3,"free":"f","counts":{"a":1},"byId":{"7":"seven"},"pair":[1,2],"items":[{"title":"t"}],"maybeItem":null}`,
}

func TestDifferentialSeeds(t *testing.T) {
	for _, root := range roots {
		ref := compiled(t, root)
		for _, s := range seeds {
			if d := differ(ref, root, []byte(s)); d != "" {
				t.Error(d)
			}
		}
	}
}

// FuzzDifferential feeds random JSON to every root's generated validator
// and to jsonschema on the emitted schema: the verdicts must agree and the
// validator must never panic.
func FuzzDifferential(f *testing.F) {
	for i := range roots {
		for _, s := range seeds {
			f.Add(uint8(i), []byte(s))
		}
	}
	refs := map[string]*jsonschema.Schema{}
	for _, root := range roots {
		refs[root] = compiled(f, root)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		root := roots[int(which)%len(roots)]
		if d := differ(refs[root], root, data); d != "" {
			t.Error(d)
		}
	})
}

func TestDecodeDefault(t *testing.T) {
	got, err := decode[Wire](decodeWire, []byte(`{"budget":1,"month":1,"mode":1,"state":0}`))
	if err != nil || got.Retries != 3 {
		t.Errorf("got %+v, %v; want Retries 3 from the default", got, err)
	}
	got, err = decode[Wire](decodeWire, []byte(`{"budget":1,"month":1,"mode":1,"state":0,"retries":0}`))
	if err != nil || got.Retries != 0 {
		t.Errorf("got %+v, %v; want Retries 0 as sent", got, err)
	}
	got, err = decode[Wire](decodeWire, []byte(`{"budget":1.0,"month":1,"mode":1,"state":0,"point":[1,2,3e0]}`))
	if err != nil || got.Budget != 1 || got.Point != [3]float64{1, 2, 3} || got.Retries != 3 {
		t.Errorf("got %+v, %v; want budget 1, point 1 2 3, retries 3", got, err)
	}
}

func TestDecodeFloatRange(t *testing.T) {
	in := `{"i8":0,"i16":0,"i32":0,"i64":0,"u":0,"u8":0,"u16":0,"u32":0,"u64":0,"f32":1e39,"f64":1e400}`
	_, err := decodeSizes([]byte(in))
	var ie *sdk.InputError
	want := []string{"/f32: must be at most 3.4028234663852886e38, got 1e39", "/f64: must be at most 1.7976931348623157e308, got 1e400"}
	if !errors.As(err, &ie) || !slices.Equal(ie.Problems, want) {
		t.Errorf("got %v, want problems %q", err, want)
	}
}

func TestDecodeConcurrent(t *testing.T) {
	done := make(chan error)
	for range 8 {
		go func() {
			var err error
			for range 200 {
				var s Search
				if s, err = decode[Search](decodeSearch, searchInput); err != nil {
					break
				}
				if s.Query != "func (c *Checker) Report" || len(s.Paths) != 3 || s.Options.Context != 2 {
					err = fmt.Errorf("got %+v", s)
					break
				}
				if _, e := decode[Search](decodeSearch, []byte(`{"query":""}`)); e == nil {
					err = errors.New("invalid input decoded without error")
					break
				}
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

package manifest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fastSamples are schemaSamples plus the shapes decodeFast must read as
// encoding/json does or refuse: escapes, nulls, empty lists, repeated and
// differently cased keys, values of other types.
func fastSamples(tb testing.TB) [][]byte {
	out := schemaSamples(tb)
	for _, s := range []string{
		`{"id":"a","tools":[]}`,
		`{"id":"a","id":"b"}`,
		`{"ID":"a"}`,
		`{"i\u0064":"x\n\u00e9\ud83d\ude00"}`,
		`{"id":"\ud800"}`,
		"{\"id\":\"\xff\"}",
		`{"id":null}`,
		`{"tools":null}`,
		`{"tools":[{"name":"a","inputSchema":null,"resultSchema":  {"a" : [1, -2.5e3, true, null]}  }]}`,
		`{"tools":[{"inputSchema":"x","scopes":[],"clientActions":["a","b"],"hasView":false}]}`,
		`{"tools":[{"scopes":null}]}`,
		`{"tools":[{"hasView":1}]}`,
		`{"tools":[{"kind":"plain","runs":"client","task":"optional","annotations":{"readOnly":true},"approval":null}]}`,
		`{"tools":[{"annotations":{"READONLY":true}}]}`,
		`{"tools":[{"name":"a"},{"name":"a","name":"b"}]}`,
		`{"permissions":null,"icons":[{"src":"a","sizes":["1x1"]}],"hooks":[]}`,
		`{"commands":[{"id":"a","extra":1}]}`,
		`{"agents":[{"name":"a","tools":[]}],"clientActions":[{"kind":"k","paramsSchema":{}}]}`,
		` {"id":"a"} `,
		`{"id":"a"} x`,
		`{"id":"a",}`,
		`{"id" "a"}`,
		`{"tools":[{"inputSchema":01}]}`,
		`{"tools":[{"inputSchema":"\x"}]}`,
		`[]`,
	} {
		out = append(out, []byte(s))
	}
	return out
}

// FuzzDecodeFast checks that what decodeFast decodes, encoding/json
// decodes too, to the same manifest.
func FuzzDecodeFast(f *testing.F) {
	fuzzSamples(f, checkDecodeFast)
}

// fuzzSamples fuzzes check, seeded with the samples.
func fuzzSamples(f *testing.F, check func(*testing.T, []byte)) {
	for _, data := range fastSamples(f) {
		f.Add(data)
	}
	f.Fuzz(check)
}

func checkDecodeFast(t *testing.T, data []byte) {
	t.Helper()
	var got Manifest
	if !decodeFast(data, &got, nil) {
		return
	}
	var want Manifest
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("decodeFast took %q, which json.Unmarshal refuses: %v", data, err)
	}
	if !reflect.DeepEqual(&got, &want) {
		t.Fatalf("decodeFast(%q):\ngot  %#v\nwant %#v", data, got, want)
	}
}

// TestDecodeFastSamples runs the fuzz check on every sample, and checks
// that the samples decodeFast must read, it reads: a generated manifest
// never falls back to encoding/json.
func TestDecodeFastSamples(t *testing.T) {
	t.Parallel()
	for _, data := range fastSamples(t) {
		checkDecodeFast(t, data)
	}
	golden := researchGolden(t)
	good, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range [][]byte{golden, good,
		[]byte(`{"i\u0064":"x\n\u00e9","tools":[{"inputSchema":null,"scopes":[]}]}`),
		[]byte(`{"icons":[{"src":"a","sizes":[]}],"tools":[{"annotations":{"readOnly":true},"approval":{"when":"always","reason":"r"},"hasView":true,"icons":[]}]}`),
	} {
		var m Manifest
		if !decodeFast(data, &m, nil) {
			t.Errorf("decodeFast refused %.80q", data)
		}
	}
	for _, s := range []string{`{"id":"a","id":"b"}`, `{"ID":"a"}`, `{"id":null}`, `{"tools":[{"scopes":null}]}`, `{"id":"a"} x`} {
		var m Manifest
		if decodeFast([]byte(s), &m, nil) {
			t.Errorf("decodeFast took %s", s)
		}
	}
}

// TestDecodeFastCopies checks that a decoded manifest shares no bytes with
// its input, as with encoding/json, and that its raw values do not overlap.
func TestDecodeFastCopies(t *testing.T) {
	t.Parallel()
	data := []byte(`{"tools":[{"inputSchema":{"type":"object"},"resultSchema":{}},{"inputSchema":{"b":1}}]}`)
	var m Manifest
	if !decodeFast(data, &m, nil) {
		t.Fatal("decodeFast refused it")
	}
	for i := range data {
		data[i] = ' '
	}
	// Appending to one raw value leaves the next as it was.
	_ = append(m.Tools[0].InputSchema, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"...)
	for _, c := range []struct{ got, want string }{
		{string(m.Tools[0].InputSchema), `{"type":"object"}`},
		{string(m.Tools[0].ResultSchema), `{}`},
		{string(m.Tools[1].InputSchema), `{"b":1}`},
	} {
		if c.got != c.want {
			t.Errorf("got schema %s after the input changed, want %s", c.got, c.want)
		}
	}
}

// FuzzDecodeOneWalk checks that decodeFast with the schema takes only what
// schemaAcceptsJSON accepts, decoding it as decodeFast without the schema
// does, and takes all of it that decodeFast without the schema reads:
// Decode's one walk answers as its two did.
func FuzzDecodeOneWalk(f *testing.F) {
	fuzzSamples(f, checkDecodeOneWalk)
}

func checkDecodeOneWalk(t *testing.T, data []byte) {
	t.Helper()
	var got, want Manifest
	one := decodeFast(data, &got, acceptNode())
	accepts := schemaAcceptsJSON(data)
	two := accepts && decodeFast(data, &want, nil)
	if one != two {
		t.Fatalf("decodeFast with the schema of %q: got %v, want %v (schemaAcceptsJSON %v)", data, one, two, accepts)
	}
	if one && !reflect.DeepEqual(&got, &want) {
		t.Fatalf("decodeFast with the schema of %q:\ngot  %#v\nwant %#v", data, got, want)
	}
}

// researchGolden is the research mod's manifest as modgen writes it.
func researchGolden(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "research.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDecodeOneWalkSamples runs the fuzz check on every sample, and checks
// that the one walk takes a generated manifest.
func TestDecodeOneWalkSamples(t *testing.T) {
	t.Parallel()
	for _, data := range fastSamples(t) {
		checkDecodeOneWalk(t, data)
	}
	golden := researchGolden(t)
	var m Manifest
	if !decodeFast(golden, &m, acceptNode()) {
		t.Errorf("decodeFast with the schema refused research.golden.json")
	}
}

// TestFastDecoderStringAllocs reads strings into one chunk: each string
// keeps its bytes while later ones are added and the input changes, and
// twenty short strings cost one allocation.
func TestFastDecoderStringAllocs(t *testing.T) {
	var d fastDecoder
	in := []byte("0123456789")
	var got []string
	for i := range 100 {
		in[0] = byte('a' + i%26)
		got = append(got, d.string(in[:1+i%10]))
	}
	in[0] = '!'
	for i, s := range got {
		if want := string(rune('a'+i%26)) + "123456789"[:i%10]; s != want {
			t.Fatalf("string %d: got %q, want %q", i, s, want)
		}
	}
	if got := d.string(nil); got != "" {
		t.Errorf("no bytes: got %q, want \"\"", got)
	}
	allocs := testing.AllocsPerRun(100, func() {
		d := fastDecoder{}
		for range 20 {
			_ = d.string(in)
		}
	})
	if allocs != 1 {
		t.Errorf("20 strings of %d bytes: got %v allocations, want 1", len(in), allocs)
	}
}

// TestDecodeSharedSchemas decodes manifests whose tools share schema
// bytes, which the one walk checks once: each tool gets its own copy of
// them, and a schema that starts with bytes accepted before but is not
// the same value, or a tool that breaks a rule with an accepted schema,
// is refused as the long way refuses it, naming the tool.
func TestDecodeSharedSchemas(t *testing.T) {
	t.Parallel()
	const schema = `{"type":"object","properties":{"q":{"type":"string"}}}`
	manifest := func(tools ...string) []byte {
		return []byte(`{"formatVersion":"1.0","id":"shared","goPackage":"example.com/shared","sourceHash":"sha256:` +
			strings.Repeat("0", 64) + `","tools":[` + strings.Join(tools, ",") + `]}`)
	}
	tool := func(name, kind, input string) string {
		return `{"name":"` + name + `","description":"d","kind":"` + kind + `","inputSchema":` + input + `}`
	}
	for _, c := range []struct {
		name    string
		data    []byte
		wantErr string // "" for none
	}{
		{"same", manifest(tool("a", "plain", schema), tool("b", "plain", schema), tool("c", "plain", schema)), ""},
		{"spaced", manifest(tool("a", "plain", schema), tool("b", "plain", " \n"+schema+" ")), ""},
		{"result too", manifest(`{"name":"a","description":"d","kind":"rendered","inputSchema":` + schema + `,"resultSchema":` + schema + `}`), ""},
		{"bad rule", manifest(tool("a", "plain", schema), tool("b", "rendered", schema)), `tools[1] "b": a rendered tool needs a resultSchema`},
		{"more after", manifest(tool("a", "plain", schema), tool("b", "plain", schema+`}`)), "invalid character"},
		{"not closed", manifest(tool("a", "plain", schema), tool("b", "plain", schema[:len(schema)-1])), "invalid character"},
		{"longer", manifest(tool("a", "plain", schema), tool("b", "plain", schema[:len(schema)-1]+`,"x":[}`)), "invalid character"},
		{"array", manifest(tool("a", "plain", schema), tool("b", "plain", `[`+schema+`]`)), `tools[1] "b": inputSchema must be a JSON object`},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkDecodeOneWalk(t, c.data)
			got, err := Decode(c.data)
			want, wantErr := decodeChecked(c.data)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("got error %v, the long way %v", err, wantErr)
			}
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("got error %v, want one saying %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %+v, the long way %+v", got, want)
			}
			for i, tl := range got.Tools {
				if string(tl.InputSchema) != schema {
					t.Errorf("tools[%d]: got inputSchema %s, want %s", i, tl.InputSchema, schema)
				}
				// Each schema is its own: appending to one leaves the rest.
				_ = append(tl.InputSchema, "xxxxxxxx"...)
			}
			for i, tl := range got.Tools {
				if string(tl.InputSchema) != schema {
					t.Errorf("tools[%d] after appending to the others: got inputSchema %s, want %s", i, tl.InputSchema, schema)
				}
			}
		})
	}
}

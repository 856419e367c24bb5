package schematest

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modkit/modkit/internal/schemacheck"
	"github.com/modkit/modkit/sdk"
)

// The one voice: a model reads the same problem list whether the mod's
// generated decoder judged the input, or the host's JSON Schema fallback
// did (and then the mod decoded what it accepted).

func fallback(t testing.TB, root string) *schemacheck.Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", root+".schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := schemacheck.Compile("mem://"+root+".json", data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var fallbacks = sync.OnceValue(func() map[string]*schemacheck.Schema {
	m := map[string]*schemacheck.Schema{}
	for _, root := range roots {
		data, err := os.ReadFile(filepath.Join("testdata", root+".schema.json"))
		if err != nil {
			panic(err)
		}
		if m[root], err = schemacheck.Compile("mem://"+root+".json", data); err != nil {
			panic(err)
		}
	}
	return m
})

// fallbackOf returns the host's fallback for a root's golden schema.
func fallbackOf(root string) *schemacheck.Schema { return fallbacks()[root] }

// problemsOf returns the problems of a decoder's error.
func problemsOf(err error) []string {
	var ie *sdk.InputError
	if errors.As(err, &ie) {
		return ie.Problems
	}
	if err != nil {
		return []string{err.Error()}
	}
	return nil
}

// twoVoices returns what each path says about data, or "" when they agree.
func twoVoices(s *schemacheck.Schema, root string, data []byte) string {
	_, err := decoders[root](data)
	generated := problemsOf(err)
	host := s.Check(data)
	if len(host) == 0 {
		_, err := decoders[root](data)
		host = problemsOf(err)
	}
	if slices.Equal(generated, host) {
		return ""
	}
	return root + " " + string(data) + ":\n generated:\n  " + strings.Join(generated, "\n  ") + "\n host:\n  " + strings.Join(host, "\n  ")
}

// voiceInputs are the corpus: the seeds, the problem cases, and inputs
// that break every rule once.
func voiceInputs() []string {
	in := slices.Clone(seeds)
	in = append(in,
		`{"query":5,"zz":1}`,
		`{"query":"a","query":"b","zz":1,"zz":2,"options":{"caseSensitive":1,"context":"x"}}`,
		`{"name":"a","children":[{"name":"b","parent":5},{"name":1,"nam":2}],"parent":{"name":null}}`,
		`{"items":[{"title":"","level":"high"},{"title":"abcdefghijklmnopqrstu","level":1.5}],"next":7}`,
		`{"budget":"x","month":1.5,"mode":-1,"state":1e400,"labels":{"a":1,"a":2},"point":[1,2],"big":"x","retries":-1e-400}`,
		`{"anything":{"a":1,"a":2},"raw":[1e309],"counts":{"a":-1,"b":70000,"a":1},"byId":{"x":"y","99999999999999999999":"z"},"pair":[1,2,3],"maybeItem":5,"color":"pink","level":0,"up":7,"blob":"!!"}`,
		`{"score":-1,"step":0,"limit":51,"name":"","code":"","tags":[],"mode":"","flag":"x","on":"maybe","ratio":"1e400","count":"-1","email":"","site":"","uuid":"","day":"","at":"","percent":1}`,
		`{"contactMethod":"phone","contactMethod":"email","email":"e"}`,
		`{"contactMethod":5,"phone":"1","address":{"street":1,"zip":2},"backup":{"level":"2","b":"x","e":"y","through":{"urgent":1}}}`,
		`{"contactMethod":"ph\u006fne","backup":{"level":2e0,"a":1.5,"d":null,"through":{"urgent":true,"urgent":false}}}`,
		`{"backup":{"level":1e400,"c":true},"email":"x"}`, `{"backup":{"level":20e-1,"e":"y"},"phone":""}`,
		`[1,2`, `{"a":}`, ``, `   `, `nul`, `{"query":"x"} {}`,
		`{"limit":1e10000000,"query":"DefineMod"}`,
		`{"i8":1.5,"i16":1e2,"i32":-0.0,"i64":1e19,"u":1e-400,"u8":"1","u16":true,"u32":[],"u64":{},"f32":1e39,"f64":-1e309}`,
		// Integers beyond a 64-bit float, with and without a fraction.
		`{"i8":1e400,"i16":-1e400,"i32":1e309,"i64":1e400,"u":-1e400,"u8":1e400,"u16":1e400,"u32":1e400,"u64":-1e400,"f32":1e400,"f64":-1e400}`,
		`{"limit":1`+strings.Repeat("0", 450)+`.5,"i64":-1`+strings.Repeat("0", 450)+`.5,"level":1e400,"step":1e400,"score":1e400,"percent":1e400}`,
		// Numbers written too long, anywhere.
		`{"query":"x","limit":`+strings.Repeat("7", 1001)+`,"paths":[`+strings.Repeat("1", 1001)+`],"regex":-`+strings.Repeat("2", 1000)+`}`,
		`{"anything":[0.`+strings.Repeat("3", 1000)+`],"raw":`+strings.Repeat("4", 1001)+`,"counts":{"a":`+strings.Repeat("5", 1001)+`},"level":`+strings.Repeat("6", 1001)+`,"pair":[1e`+strings.Repeat("0", 999)+`]}`,
		`{"i64":`+strings.Repeat("8", 1000)+`,"f64":`+strings.Repeat("8", 1000)+`}`,
	)
	for _, tt := range problemCases {
		in = append(in, tt.input)
	}
	return in
}

// hugeFraction is a 1 MB number where an integer belongs: it once took
// the host's check seconds and left it without words.
var hugeFraction = `{"query":"x","limit":0.` + strings.Repeat("1", 1<<20) + `}`

func TestOneVoice(t *testing.T) {
	for _, root := range roots {
		s := fallback(t, root)
		// The 1 MB input is no fuzz seed: mutating it would cost the
		// fuzzer more than judging it costs either side.
		for _, in := range append(voiceInputs(), hugeFraction) {
			if d := twoVoices(s, root, []byte(in)); d != "" {
				t.Error(d)
			}
		}
	}
}

// FuzzOneVoice holds the two paths to the same words on random input.
func FuzzOneVoice(f *testing.F) {
	for i := range roots {
		for _, s := range voiceInputs() {
			f.Add(uint8(i), []byte(s))
		}
	}
	schemas := map[string]*schemacheck.Schema{}
	for _, root := range roots {
		schemas[root] = fallback(f, root)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		root := roots[int(which)%len(roots)]
		if d := twoVoices(schemas[root], root, data); d != "" {
			t.Error(d)
		}
	})
}

package host

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/schemacheck"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/manifest"
)

// quickSchema compiles the input schema of the quick mod's tool i: 0 is
// quick_echo, {"text": string}, 1 is quick_activity, {"logs": integer from
// 0 to 1000}; both closed. The host checks input so for a mod without
// generated validators.
func quickSchema(tb testing.TB, i int) *schemacheck.Schema {
	tb.Helper()
	data, err := os.ReadFile("testdata/mods/quick/mod.manifest.json")
	if err != nil {
		tb.Fatal(err)
	}
	m, err := manifest.Decode(data)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := schemacheck.ToolInput("quick", m.Tools[i])
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// hostileEchoInputs are echo inputs built to make rejecting them expensive.
func hostileInputs() []struct {
	name  string
	tool  int
	input string
	want  string
} {
	var b strings.Builder
	b.WriteString(`{"text":"x"`)
	for i := range 20000 {
		b.WriteString(`,"f` + strconv.Itoa(i) + `":1`)
	}
	b.WriteString("}")
	return []struct {
		name  string
		tool  int
		input string
		want  string
	}{
		{"20000_unknown_fields", 0, b.String(), "and 19950 more problems"},
		{"1MB-digit_number_for_a_string", 0, `{"text":` + strings.Repeat("7", 1<<20) + `}`, "/text: must be a string, got a number"},
		{"1MB-digit_integer", 1, `{"logs":` + strings.Repeat("7", 1<<20) + `}`, "/logs: must be a number at most 1000 characters long, got 1048576"},
		{"1MB_fraction", 1, `{"logs":0.` + strings.Repeat("1", 1<<20) + `}`, "/logs: must be a number at most 1000 characters long, got 1048578"},
		{"long_number_at_the_root", 1, strings.Repeat("5", 1001), "/: must be an object, got a number"},
		{"long_numbers_deep", 1, `{"logs":1,"x":[` + strings.Repeat("8", 2000) + `,{"y":` + strings.Repeat("9", 1001) + `}]}`, `/: unknown property "x"`},
	}
}

// TestHostileInputHostCheck checks that the host's own schema check lists
// at most the first 50 problems and counts the rest.
func TestHostileInputHostCheck(t *testing.T) {
	t.Parallel()
	for _, tt := range hostileInputs() {
		problems := checkInput(quickSchema(t, tt.tool), []byte(tt.input))
		if len(problems) > limits.MaxProblems+1 {
			t.Errorf("%s: got %d lines, want at most %d", tt.name, len(problems), limits.MaxProblems+1)
		}
		msg := words.Message("invalid input for tool quick_echo:", problems)
		if len(msg) > 64<<10 || !strings.Contains(msg, tt.want) {
			t.Errorf("%s: got a %d-byte message %.300q, want at most 64 KiB containing %q", tt.name, len(msg), msg, tt.want)
		}
	}
}

// BenchmarkHostileInputHostCheck measures the host's own schema check on
// hostile input. Goals: 20,000 unknown fields in under 1 s, a 1 MB-digit
// number in under 100 ms.
func BenchmarkHostileInputHostCheck(b *testing.B) {
	for _, tt := range hostileInputs() {
		b.Run(tt.name, func(b *testing.B) {
			s, in := quickSchema(b, tt.tool), []byte(tt.input)
			for b.Loop() {
				if p := checkInput(s, in); len(p) == 0 {
					b.Fatal("accepted")
				}
			}
		})
	}
}

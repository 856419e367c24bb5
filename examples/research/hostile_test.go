package research

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

// maxMessage is the most an invalid-input message may take, whatever the
// input: the first 50 problems and a line counting the rest.
const maxMessage = 64 << 10

// unknownFields returns a search input with n unknown fields.
func unknownFields(n int) string {
	var b strings.Builder
	b.WriteString(`{"query":"x"`)
	for i := range n {
		b.WriteString(`,"field`)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`":1`)
	}
	b.WriteString("}")
	return b.String()
}

// hostileInputs are inputs built to make rejecting them expensive.
var hostileInputs = []struct {
	name, input string
	// want is in the message; more is the count of unlisted problems.
	want string
	more int
}{
	{"20,000 unknown fields", unknownFields(20000),
		`/: unknown property "field0" (allowed: "query", "regex", "path", "limit", "case")`, 19950},
	// The same problem again and again is listed once.
	{"20,000 duplicate fields", `{"query":"x"` + strings.Repeat(`,"regex":true`, 20001) + "}",
		`/: duplicate property "regex"`, 0},
	{"3 MB enum value", `{"query":"x","case":"` + strings.Repeat("a", 3<<20) + `"}`,
		`/case: must be one of "sensitive", "insensitive", "smart", got "` + strings.Repeat("a", 100) + `…"`, 0},
	{"1 MB-digit integer", `{"query":"x","limit":` + strings.Repeat("9", 1<<20) + `}`,
		"/limit: must be a number at most 1000 characters long, got 1048576", 0},
	{"1 MB fraction", `{"query":"x","limit":0.` + strings.Repeat("1", 1<<20) + `}`,
		"/limit: must be a number at most 1000 characters long, got 1048578", 0},
	{"1 MB key", `{"query":"x","` + strings.Repeat("k", 1<<20) + `":1}`,
		`/: unknown property "` + strings.Repeat("k", 100) + `…" (allowed:`, 0},
	{"3 MB string of the wrong type", `{"query":["` + strings.Repeat("q", 3<<20) + `"]}`,
		"/query: must be a string, got an array", 0},
}

// TestHostileInputIsRefusedBriefly checks that inputs built to make
// rejecting them expensive get a short message: the first 50 problems,
// values quoted in part, and a count of the rest.
func TestHostileInputIsRefusedBriefly(t *testing.T) {
	for _, tt := range hostileInputs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := generated().Inputs["research_search_workspace"]([]byte(tt.input))
			var ie *sdk.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("got %v, want an *sdk.InputError", err)
			}
			if len(ie.Problems) > 50 || ie.More != tt.more {
				t.Errorf("got %d problems and %d more, want at most 50 and %d more", len(ie.Problems), ie.More, tt.more)
			}
			msg := ie.Error()
			if len(msg) > maxMessage {
				t.Errorf("got a %d-byte message, want at most %d", len(msg), maxMessage)
			}
			if !strings.Contains(msg, tt.want) {
				t.Errorf("message %.300q does not contain %.300q", msg, tt.want)
			}
			if tt.more > 0 && !strings.HasSuffix(msg, "\n  and "+strconv.Itoa(tt.more)+" more problems") {
				t.Errorf("message ends %q, want it to count the %d problems left out", msg[max(0, len(msg)-80):], tt.more)
			}
			// The model reads the same through the runtime.
			out := modtest.Run(t, generated(), "research_search_workspace", tt.input, nil)
			if out.Status != modtest.StatusFailed || len(out.Text) > maxMessage+100 || !strings.Contains(out.Text, tt.want) {
				t.Errorf("through modtest: got %s with a %d-byte text %.200q", out.Status, len(out.Text), out.Text)
			}
		})
	}
}

// FuzzProblemsAreCapped checks that whatever the input, the generated
// validator lists at most 50 problems and its message stays short.
func FuzzProblemsAreCapped(f *testing.F) {
	f.Add([]byte(unknownFields(60)))
	f.Add([]byte(`{"query":"","limit":0,"case":"x","regex":1,"path":2}`))
	f.Add([]byte(`{"query":"x"` + strings.Repeat(`,"query":"y"`, 60) + "}"))
	f.Add([]byte(`[` + strings.Repeat(`1,`, 100) + `1]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := generated().Inputs["research_search_workspace"](data)
		var ie *sdk.InputError
		if !errors.As(err, &ie) {
			return
		}
		if len(ie.Problems) > 50 {
			t.Errorf("got %d problems listed, want at most 50", len(ie.Problems))
		}
		if n := len(ie.Error()); n > maxMessage {
			t.Errorf("got a %d-byte message, want at most %d", n, maxMessage)
		}
	})
}

// BenchmarkRejectHostile measures refusing the hostile inputs with the
// generated validator, message included. Goals: 20,000 unknown fields in
// under 1 s, a 1 MB-digit number in under 100 ms.
func BenchmarkRejectHostile(b *testing.B) {
	decode := generated().Inputs["research_search_workspace"]
	for _, tt := range hostileInputs {
		b.Run(strings.NewReplacer(" ", "_", ",", "").Replace(tt.name), func(b *testing.B) {
			in := []byte(tt.input)
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				_, err := decode(in)
				if err == nil || len(err.Error()) > maxMessage {
					b.Fatalf("got %v", err)
				}
			}
		})
	}
}

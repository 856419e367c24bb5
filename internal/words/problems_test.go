package words

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modkit/modkit/internal/limits"
)

func TestEchoIsBounded(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 3<<20)
	if got := Echo(long); len(got) > limits.MaxEcho+len("…") || !utf8.ValidString(got) {
		t.Errorf("Echo of 6 MB: got %d bytes (valid UTF-8: %v), want at most %d", len(got), utf8.ValidString(got), limits.MaxEcho+len("…"))
	}
}

func TestProblems(t *testing.T) {
	t.Parallel()
	list := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "/" + strconv.Itoa(i) + ": wrong"
		}
		return out
	}
	tests := []struct {
		n, more int
		want    int    // lines
		last    string // last line
	}{
		{0, 0, 0, ""},
		{1, 0, 1, "/0: wrong"},
		{limits.MaxProblems, 0, limits.MaxProblems, "/49: wrong"},
		{limits.MaxProblems + 1, 0, limits.MaxProblems + 1, "and 1 more problem"},
		{20000, 0, limits.MaxProblems + 1, "and 19950 more problems"},
		{limits.MaxProblems, 7, limits.MaxProblems + 1, "and 7 more problems"},
		{3, 2, 4, "and 2 more problems"},
	}
	for _, tt := range tests {
		got := Problems(list(tt.n), tt.more)
		if len(got) != tt.want {
			t.Errorf("Problems(%d, %d): got %d lines, want %d", tt.n, tt.more, len(got), tt.want)
			continue
		}
		if len(got) > 0 && got[len(got)-1] != tt.last {
			t.Errorf("Problems(%d, %d): last line %q, want %q", tt.n, tt.more, got[len(got)-1], tt.last)
		}
	}
}

func TestMessageIsBounded(t *testing.T) {
	t.Parallel()
	huge := "/" + strings.Repeat("x", 1<<20)
	lines := make([]string, 10000)
	for i := range lines {
		lines[i] = huge
	}
	msg := Message("invalid input:", lines)
	if max := len("invalid input:") + (limits.MaxProblems+1)*(3+limits.MaxProblemBytes+len("…")); len(msg) > max {
		t.Errorf("got a %d-byte message, want at most %d", len(msg), max)
	}
	if got, want := Message("head:", []string{"/a: one", "/b: two"}), "head:\n  /a: one\n  /b: two"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

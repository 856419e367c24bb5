package words

import (
	"strconv"
	"strings"

	"github.com/modkit/modkit/internal/limits"
)

// Echo returns s, a value from the input, cut to at most limits.MaxEcho
// bytes at a character boundary, with "…" appended when it was cut.
func Echo(s string) string { return limits.Cut(s, limits.MaxEcho) }

// echoRaw is Echo for a value as sent: a JSON string cut short keeps its
// closing quote.
func echoRaw(raw string) string {
	if len(raw) > limits.MaxEcho && len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		return `"` + Echo(raw[1:len(raw)-1]) + `"`
	}
	return Echo(raw)
}

// quote is Echo for a string value, which a problem quotes.
func quote(s string) string { return strconv.Quote(Echo(s)) }

// Problems returns list as a message shows it: the first
// limits.MaxProblems entries, then, when list is longer or more is
// positive, a line counting the rest. more counts problems found but never
// put in list.
func Problems(list []string, more int) []string {
	if len(list) > limits.MaxProblems {
		more += len(list) - limits.MaxProblems
		list = list[:limits.MaxProblems]
	}
	if more <= 0 {
		return list
	}
	out := make([]string, len(list), len(list)+1)
	copy(out, list)
	noun := " more problems"
	if more == 1 {
		noun = " more problem"
	}
	return append(out, "and "+strconv.Itoa(more)+noun)
}

// Message returns head followed by lines, each on its own line indented by
// two spaces. It keeps at most limits.MaxProblems+1 lines (a list from
// Problems), each cut to limits.MaxProblemBytes, so a message is bounded
// whatever it is given.
func Message(head string, lines []string) string {
	if len(lines) > limits.MaxProblems+1 {
		lines = lines[:limits.MaxProblems+1]
	}
	var b strings.Builder
	b.WriteString(head)
	for _, l := range lines {
		b.WriteString("\n  ")
		b.WriteString(limits.Cut(l, limits.MaxProblemBytes))
	}
	return b.String()
}

package research

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modkit/modkit/sdk"
)

// WordCountInput is the passage whose words research_word_count counts.
type WordCountInput struct {
	// Text is the passage to count. Words are separated by Unicode white space.
	Text string `json:"text" jsonschema:"maxLength=1000000"`
}

// countWords counts the words, lines and characters of in.Text.
func countWords(tc *sdk.ToolContext, in WordCountInput) (sdk.Result, error) {
	words := len(strings.Fields(in.Text))
	if words == 0 {
		if in.Text == "" {
			return sdk.Text("The passage is empty: it has no words."), nil
		}
		return sdk.Text(fmt.Sprintf("The passage has no words: it is only white space (%s).",
			plural(utf8.RuneCountInString(in.Text), "character", "characters"))), nil
	}
	lines := strings.Count(in.Text, "\n")
	if !strings.HasSuffix(in.Text, "\n") {
		lines++
	}
	return sdk.Text(fmt.Sprintf("The passage has %s, %s and %s.",
		plural(words, "word", "words"),
		plural(lines, "line", "lines"),
		plural(utf8.RuneCountInString(in.Text), "character", "characters"))), nil
}

// plural formats n with thousands separators and the right noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(n) + " " + many
}

// thousands formats n with commas between groups of three digits: 2,031.
func thousands(n int) string {
	if n < 0 {
		return "-" + thousands(-n)
	}
	s := fmt.Sprint(n)
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	head := len(s) % 3
	if head > 0 {
		b.WriteString(s[:head])
	}
	for i := head; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

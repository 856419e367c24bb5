package sdk

import (
	"regexp"
	"strings"
	"testing"
)

// TestValidKey compares the hand-written check of a question key with the
// expression it replaces.
func TestValidKey(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9_./-]{1,64}$`)
	keys := []string{"", "a", "Z", "0", "_", ".", "/", "-", "plan/step-1.v2", strings.Repeat("k", 64), strings.Repeat("k", 65),
		"a b", "a\n", "\na", "é", "a:b", "a+b", "a@", "[", "`", "{", "~", "\x00", strings.Repeat("é", 32)}
	for c := 0; c < 256; c++ {
		keys = append(keys, string(rune(c)), "x"+string([]byte{byte(c)}))
	}
	for _, k := range keys {
		if got, want := validKey(k), re.MatchString(k); got != want {
			t.Errorf("validKey(%q): got %v, want %v", k, got, want)
		}
	}
}

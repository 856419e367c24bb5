package jsoncheck

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestFormats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		format, s string
		want      bool
	}{
		{"date-time", "2026-01-02T15:04:05Z", true},
		{"date-time", "2026-01-02t15:04:05.123+01:30", true},
		{"date-time", "2026-12-31T23:59:60Z", true},
		{"date-time", "2026-12-31T22:59:60-01:00", true},
		{"date-time", "2026-12-31T12:59:60Z", false},
		{"date-time", "2026-01-02T15:04:05", false},
		{"date-time", "2026-01-02 15:04:05Z", false},
		{"date-time", "2026-01-02T15:04:05.Z", false},
		{"date", "2024-02-29", true},
		{"date", "2023-02-29", false},
		{"date", "2024-2-29", false},
		{"email", "ada@example.com", true},
		{"email", "ada@[127.0.0.1]", true},
		{"email", "ada@[IPv6:::1]", true},
		{"email", "ada", false},
		{"email", "ada@-x.com", false},
		{"uri", "https://example.com/a?b#c", true},
		{"uri", "urn:isbn:0451450523", true},
		{"uri", "/relative", false},
		{"uri", "http://[::1]:80/", true},
		{"uri", "http://::1/", false},
		{"uuid", "123e4567-e89b-12d3-a456-426614174000", true},
		{"uuid", "123e4567e89b12d3a456426614174000", false},
		{"uuid", "123e4567-e89b-12d3-a456-42661417400g", false},
		{"unknown", "anything", true},
		{"int64", "9223372036854775807", true},
		{"int64", "9223372036854775808", false},
		{"int64", "-9223372036854775809", false},
		{"int8", "-128", true},
		{"int8", "300", false},
		{"uint64", "18446744073709551616", false},
		{"int64", "x", true}, // not a number: the field's pattern says so
		{"float", "3.4e38", true},
		{"float", "3.5e38", false},
		{"double", "1e309", false},
	}
	for _, tt := range tests {
		if got := Format(tt.format, []byte(tt.s)); got != tt.want {
			t.Errorf("Format(%s, %q): got %v, want %v", tt.format, tt.s, got, tt.want)
		}
	}
}

func TestBase64(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{"aGk=": true, "aGk": false, "": true, "a\nGk=": true, "!!": false} {
		if got := Base64([]byte(s)); got != want {
			t.Errorf("Base64(%q): got %v, want %v", s, got, want)
		}
	}
}

func TestInRange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		format, n string
		want      bool
	}{
		{"int64", "9223372036854775807", true},
		{"int64", "9.223372036854775807e18", true},
		{"int64", "9223372036854775808", false},
		{"uint64", "-1", false},
		{"uint64", "18446744073709551615", true},
		{"float", "1e39", false},
		{"float", "-1e38", true},
		{"double", "1e308", true},
		{"double", "-1e309", false},
		{"double", "1e-400", true},
		{"double", "1e10000000", false},
	}
	for _, tt := range tests {
		if got := inRange(tt.format, parseNum([]byte(tt.n))); got != tt.want {
			t.Errorf("inRange(%s, %s): got %v, want %v", tt.format, tt.n, got, tt.want)
		}
	}
}

func TestIsGoTime(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]bool{
		"2026-01-02T15:04:05Z":        true,
		"2026-01-02T15:04:05.5+01:00": true,
		"2026-01-02T15:04:05z":        false, // Go wants an upper-case Z
		"2026-01-02t15:04:05Z":        false,
		"2026-12-31T23:59:60Z":        false, // and no leap second
		`2026-01-02T15:04:05\u005a`:   false, // nor escapes
		"2026-01-02T15:04:05":         false,
	} {
		if got := isGoTime([]byte(raw)); got != want {
			t.Errorf("isGoTime(%q): got %v, want %v", raw, got, want)
		}
	}
}

// isPlainEmail accepts nothing isEmail refuses, and the plain addresses.
func TestPlainEmail(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"ada@example.com", true},
		{"a.b+c_d!#$%&'*/=?^`{|}~-@x-1.example", true},
		{"ada@example.com.", false}, // net/mail refuses the trailing dot
		{"ada.@example.com", false},
		{".ada@example.com", false},
		{"a..b@example.com", false},
		{"ada@ex..com", false},
		{"ada@", false},
		{"@example.com", false},
		{"\"ada\"@example.com", false}, // quoted: net/mail's to judge
		{"ada lovelace@example.com", false},
		{"adä@example.com", false},
		{"ada@[127.0.0.1]", false},
		{strings.Repeat("a", 65) + "@example.com", false},
	} {
		if got := isPlainEmail(c.s); got != c.want {
			t.Errorf("isPlainEmail(%q) = %v, want %v", c.s, got, c.want)
		}
	}
	// Random addresses over the characters that matter: every plain one
	// is an email address.
	const local, domain = "a.-_\"()[]<>:;,\\ ä1+~@", "a.-1_[]ä "
	r := rand.New(rand.NewPCG(1, 2))
	word := func(chars string) string {
		b := make([]byte, 1+r.IntN(8))
		for i := range b {
			b[i] = chars[r.IntN(len(chars))]
		}
		return string(b)
	}
	plain := 0
	for range 100000 {
		if s := word(local) + "@" + word(domain); isPlainEmail(s) {
			plain++
			if !isEmail(s) {
				t.Fatalf("isPlainEmail(%q) = true, isEmail = false", s)
			}
		}
	}
	if plain < 100 {
		t.Errorf("got %d plain addresses among the random ones, want at least 100", plain)
	}
}

func TestFormatEmailAllocs(t *testing.T) {
	s := []byte("ada@example.com")
	if n := testing.AllocsPerRun(100, func() { Format("email", s) }); n != 0 {
		t.Errorf("got %v allocations checking a plain address, want 0", n)
	}
}

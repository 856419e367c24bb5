package host_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
)

// FuzzCall drives Host.Call with random input while crashy, which hooks
// tool calls, is loaded: nothing crashes, and every call ends as
// crashy_echo's schema says, judged here on its own (echoAnswer): valid
// input completes with the text repeated, anything else is refused as
// invalid input.
func FuzzCall(f *testing.F) {
	for _, s := range []string{
		`{"text":"a"}`, `{"text":"a","times":2}`, `{"text":`, `[1]`, `{"text":5,"zz":1}`,
		`{"text":"a","times":1e10000000}`, `{"text":"a","times":-1e-10000000}`, `{"text":"a","text":"b"}`,
		`{"text":"\ud800","times":5.0}`, strings.Repeat("[", 20000), `{"times":1e309,"x":{"y":[1e400]}}`,
		`{"text":"a","times":0.` + strings.Repeat("1", 2000) + `}`,
		`{"text":"é b","times":3}`, `{"times":0,"text":""}`, `{"text":"a","times":50e-1}`, `{"text":"a","times":-0}`, `{"text":"a","times":6}`, ` {"text":"a"} `,
	} {
		f.Add(s)
	}
	h := load(f, nil, crashyDir)
	ses := session(f)
	f.Fuzz(func(t *testing.T, input string) {
		res, err := h.Call(context.Background(), &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(input), Session: ses})
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		answer, valid := echoAnswer(input)
		switch {
		case valid && res.Status != host.StatusCompleted:
			t.Errorf("input %q: got status %s (%s), want completed with %q", input, res.Status, res.Error, answer)
		case valid && res.Text != answer:
			t.Errorf("input %q: got text %q, want %q", input, res.Text, answer)
		case !valid && (res.Status != host.StatusFailed || !strings.HasPrefix(res.Error, "invalid input for tool crashy_echo:\n  /")):
			t.Errorf("input %q: got status %s (%s), want a failure for invalid input", input, res.Status, res.Error)
		}
	})
}

// echoAnswer judges input as crashy_echo's schema does (an object with a
// string "text", an optional integer "times" from 0 to 5, nothing else)
// and returns what the tool answers for it: text repeated times times.
func echoAnswer(input string) (answer string, valid bool) {
	if !json.Valid([]byte(input)) {
		return "", false
	}
	dec := json.NewDecoder(strings.NewReader(input))
	dec.UseNumber()
	if tok, _ := dec.Token(); tok != json.Delim('{') {
		return "", false
	}
	var text *string
	times := 0
	seen := map[string]bool{}
	for dec.More() {
		key, _ := dec.Token()
		name, _ := key.(string)
		if seen[name] {
			return "", false
		}
		seen[name] = true
		value, err := dec.Token()
		if err != nil {
			return "", false
		}
		switch name {
		case "text":
			s, ok := value.(string)
			if !ok {
				return "", false
			}
			text = &s
		case "times":
			n, ok := value.(json.Number)
			if !ok {
				return "", false
			}
			if times, ok = smallInteger(string(n)); !ok || times > 5 {
				return "", false
			}
		default:
			return "", false
		}
	}
	if text == nil {
		return "", false
	}
	return strings.TrimSuffix(strings.Repeat(*text+" ", max(times, 1)), " "), true
}

// smallInteger reads a JSON number exactly, digit by digit: it reports
// whether the number is an integer from 0 to 9, and which. -0, 5.0 and
// 50e-1 are; 0.5, 5.000…01 and 1e-10000000 are not.
func smallInteger(n string) (int, bool) {
	negative := strings.HasPrefix(n, "-")
	mantissa, exponent, _ := strings.Cut(strings.ToLower(strings.TrimPrefix(n, "-")), "e")
	whole, frac, _ := strings.Cut(mantissa, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return 0, true // zero, whatever its sign and exponent
	}
	exp := 0
	if exponent != "" {
		e, err := strconv.Atoi(strings.TrimPrefix(exponent, "+"))
		if err != nil {
			return 0, false // an exponent beyond int: far from 0 to 9
		}
		exp = e
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed) - len(frac)
	if !negative && len(trimmed) == 1 && exp == 0 {
		return int(trimmed[0] - '0'), true
	}
	return 0, false
}

// TestSmallInteger checks FuzzCall's reading of numbers.
func TestSmallInteger(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    string
		want int
		ok   bool
	}{
		{"0", 0, true}, {"-0", 0, true}, {"0e99999999999999999999", 0, true}, {"5", 5, true}, {"5.0", 5, true},
		{"50e-1", 5, true}, {"0.5E1", 5, true}, {"3e+0", 3, true}, {"-1", 0, false}, {"10", 0, false},
		{"0.5", 0, false}, {"5.0000000000000000001", 0, false}, {"1e-10000000", 0, false}, {"1e99999999999999999999", 0, false},
	} {
		if got, ok := smallInteger(tc.n); got != tc.want || ok != tc.ok {
			t.Errorf("smallInteger(%q) = %d, %v; want %d, %v", tc.n, got, ok, tc.want, tc.ok)
		}
	}
}

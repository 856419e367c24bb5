package words

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestProblem(t *testing.T) {
	t.Parallel()
	type item struct {
		B int `json:"b"`
	}
	var v struct {
		A []item         `json:"a"`
		M map[string]int `json:"m"`
		N int8           `json:"n"`
		S string         `json:"s"`
	}
	tests := []struct{ in, want string }{
		{`{"a":[{"b":1},{"b":"x"}]}`, "/a/1/b: must be an integer in range, got a string"},
		{`{"m":{"k/~":"x"}}`, "/m/k~1~0: must be an integer in range, got a string"},
		{`{"n":300}`, "/n: must be an integer in range, got number 300"},
		{`{"s":[1,2]}`, "/s: must be a string, got an array"},
		{`[1]`, "/: must be an object, got an array"},
		{`{"a":}`, "/: invalid JSON at byte 6"},
	}
	for _, tt := range tests {
		err := json.Unmarshal([]byte(tt.in), &v)
		if got := Problem([]byte(tt.in), err, nil); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

type badMarshaler struct{ out string }

func (b badMarshaler) MarshalJSON() ([]byte, error) {
	if b.out == "" {
		return nil, errors.New("the clock is not set")
	}
	return []byte(b.out), nil
}

type loop struct{ Next *loop }

func TestEncode(t *testing.T) {
	t.Parallel()
	cycle := &loop{}
	cycle.Next = cycle
	for _, tt := range []struct {
		name string
		v    any
		want string
	}{
		{"NaN", map[string]any{"x": math.NaN()}, "JSON cannot carry the number NaN"},
		{"infinity", []float64{math.Inf(1)}, "JSON cannot carry the number +Inf"},
		{"channel", map[string]any{"c": make(chan int)}, "JSON cannot carry a channel"},
		{"function", []any{func() {}}, "JSON cannot carry a function"},
		{"complex", complex(1, 2), "JSON cannot carry a complex number"},
		{"cycle", map[string]any{"loop": cycle}, "it refers to itself, which JSON cannot carry"},
		{"marshaler error", badMarshaler{}, "the clock is not set"},
		{"marshaler output", badMarshaler{out: "{"}, "it encodes as invalid JSON"},
	} {
		_, err := json.Marshal(tt.v)
		if err == nil {
			t.Fatalf("%s: encoded, want an error", tt.name)
		}
		if got := Encode(err); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// age decodes itself from text with strconv, as authors' types do, and
// says where it failed with %w.
type age int

func (a *age) UnmarshalText(b []byte) error {
	n, err := strconv.Atoi(string(b))
	*a = age(n)
	if err != nil {
		return fmt.Errorf("age: %w", err)
	}
	return nil
}

// secret decodes itself from JSON and returns encoding/json's error as is.
type secret struct{ s string }

func (x *secret) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &x.s) }

type person struct {
	Name   string `json:"name"`
	Age    age    `json:"age"`
	Secret secret `json:"secret"`
	Items  []int  `json:"items"`
}

// TestOwnDecoders: what a type's own decoder returns reaches the model in
// JSON terms, at the property it decodes.
func TestOwnDecoders(t *testing.T) {
	t.Parallel()
	decode := func(data []byte) error {
		var p person
		return json.Unmarshal(data, &p)
	}
	for _, tt := range []struct{ in, want string }{
		{`{"name":"Ada","age":"John"}`, `/age: must be an integer, got "John"`},
		{`{"name":"Ada","age":"99999999999999999999"}`, `/age: must be an integer in range, got "99999999999999999999"`},
		{`{"name":"Ada","secret":5}`, "/secret: must be a string, got a number"},
		{`{"name":"Ada","items":[1,"x"]}`, "/items/1: must be an integer in range, got a string"},
	} {
		err := decode([]byte(tt.in))
		if err == nil {
			t.Fatalf("%s: decoded, want an error", tt.in)
		}
		if got := Problem([]byte(tt.in), err, decode); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTyped(t *testing.T) {
	t.Parallel()
	var n int
	typeErr := json.Unmarshal([]byte(`"x"`), &n)
	synErr := json.Unmarshal([]byte(`{"a":`), &n)
	_, intErr := strconv.ParseInt("John", 10, 64)
	_, rangeErr := strconv.ParseUint("99999999999999999999", 10, 64)
	_, floatErr := strconv.ParseFloat("x", 64)
	_, boolErr := strconv.ParseBool("maybe")
	_, timeErr := time.Parse(time.RFC3339, "yesterday")
	_, dateErr := time.Parse(time.DateOnly, "2026-13-01")
	_, kitchenErr := time.Parse(time.Kitchen, "noon")
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"type", fmt.Errorf("color: %w", typeErr), "must be an integer in range, got a string"},
		{"syntax", fmt.Errorf("inner: %w", synErr), "must hold valid JSON: unexpected end of JSON input"},
		{"int", fmt.Errorf("id: %w", intErr), `must be an integer, got "John"`},
		{"range", rangeErr, `must be an integer in range, got "99999999999999999999"`},
		{"float", fmt.Errorf("%w", floatErr), `must be a number, got "x"`},
		{"bool", boolErr, `must be true or false, got "maybe"`},
		{"date-time", fmt.Errorf("when: %w", timeErr), `must be an RFC 3339 date-time such as 2026-05-01T12:00:00Z, got "yesterday"`},
		{"date", dateErr, `must be a date such as 2026-05-01, got "2026-13-01"`},
		{"layout", kitchenErr, `must be a time such as "12:00PM", got "noon"`},
		{"long", &strconv.NumError{Func: "Atoi", Num: strings.Repeat("z", 300), Err: strconv.ErrSyntax}, `must be an integer, got "` + strings.Repeat("z", 100) + `…"`},
	} {
		got, ok := Typed(tt.err)
		if !ok || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, got, ok, tt.want)
		}
		for _, goWord := range []string{"strconv", "Go value", "json:", "2006", "parsing"} {
			if strings.Contains(got, goWord) {
				t.Errorf("%s: %q says %q", tt.name, got, goWord)
			}
		}
	}
	if got, ok := Typed(errors.New("not a color")); ok {
		t.Errorf("plain error: got %q, want no words", got)
	}
}

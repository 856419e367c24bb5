package jsonwords

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
)

func TestProblem(t *testing.T) {
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
		if got := Problem([]byte(tt.in), err); got != tt.want {
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

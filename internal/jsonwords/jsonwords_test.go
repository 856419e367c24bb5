package jsonwords

import (
	"encoding/json"
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

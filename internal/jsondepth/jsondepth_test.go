package jsondepth

import "testing"

func TestOf(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{`1`, 0},
		{`{}`, 1},
		{`[[],[[]]]`, 3},
		{`{"a":{"b":[1,{"c":2}]}}`, 4},
		{`{"a":"[[[{{{"}`, 1},
		{`["\"[[", ["\\"], "]"]`, 2},
	} {
		if got := Of([]byte(c.in)); got != c.want {
			t.Errorf("Of(%s) = %d, want %d", c.in, got, c.want)
		}
	}
}

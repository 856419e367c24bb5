package jsoncheck

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk"
)

// TestProblemsAreCapped checks that past 50 problems a checker only
// counts, and that quoted input is cut while the schema's words are not.
func TestProblemsAreCapped(t *testing.T) {
	t.Parallel()
	c := New([]byte(`{}`))
	defer c.Release()
	for i := range 120 {
		c.Report("wrong %d, got %q", i, []byte(strings.Repeat("v", 1<<20)))
	}
	var ie *sdk.InputError
	if err := c.Err(); !errors.As(err, &ie) || len(ie.Problems) != 50 || ie.More != 70 {
		t.Fatalf("got %v, want 50 problems and 70 more", err)
	}
	if got, want := ie.Problems[0], `/: wrong 0, got "`+strings.Repeat("v", 100)+`…"`; got != want {
		t.Errorf("got %.200q, want %.200q", got, want)
	}

	allowed := strings.Repeat(`"a_long_property_name", `, 20) + `"last"`
	c2 := New([]byte(`{"` + strings.Repeat("k", 1000) + `":1}`))
	defer c2.Release()
	c2.Enter()
	for c2.Next() {
		c2.Unknown(allowed)
	}
	want := `/: unknown property "` + strings.Repeat("k", 100) + `…" (allowed: ` + allowed + ")"
	if p := c2.Problems(); len(p) != 1 || p[0] != want {
		t.Errorf("got %q, want %q", p, want)
	}
}

// TestLongNumber checks that a number written with more than 1000
// characters is one problem and that the checks of its value say nothing,
// up to the next value.
func TestLongNumber(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("7", 1001)
	c := New([]byte(`[` + long + `,` + long[:1000] + `]`))
	defer c.Release()
	c.Enter()
	for c.Next() {
		n := c.Int()
		if n.Cmp("5") > 0 {
			c.Problem(MsgBound("maximum", "5", n.String()))
		}
	}
	c.End()
	want := []string{
		"/0: must be a number at most 1000 characters long, got 1001",
		"/1: must be at most 5, got " + strings.Repeat("7", 100) + "…",
	}
	if got := c.Problems(); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

package main

import (
	"context"
	"errors"
	"slices"
	"testing"
)

func TestWarmAll(t *testing.T) {
	var got []string
	side := func(name string, failAt int) call {
		n := 0
		return func(context.Context) error {
			got = append(got, name)
			if n++; n == failAt {
				return errors.New(name + " failed")
			}
			return nil
		}
	}
	if err := warmAll(context.Background(), 2, side("a", 0), side("b", 0)); err != nil {
		t.Fatalf("got %v, want no error", err)
	}
	if want := []string{"a", "b", "a", "b"}; !slices.Equal(got, want) {
		t.Errorf("got calls %v, want %v", got, want)
	}
	got = nil
	err := warmAll(context.Background(), 3, side("a", 0), side("b", 2))
	if err == nil || err.Error() != "b failed" {
		t.Errorf("got error %v, want b failed", err)
	}
	if want := []string{"a", "b", "a", "b"}; !slices.Equal(got, want) {
		t.Errorf("got calls %v, want %v: warm-up goes on after a failure", got, want)
	}
}

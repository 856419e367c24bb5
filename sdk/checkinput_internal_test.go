package sdk

import (
	"errors"
	"reflect"
	"testing"
)

// valueChecked validates with a value receiver.
type valueChecked struct {
	Name string
	Tags []string
}

func (v valueChecked) Validate() error {
	if v.Name == "" {
		return errors.New("/name: must not be empty")
	}
	return nil
}

// pointerChecked validates with a pointer receiver, and fills a default.
type pointerChecked struct {
	Name  string
	Count int
}

func (p *pointerChecked) Validate() error {
	if p.Count < 0 {
		return errors.New("/count: must not be negative")
	}
	if p.Count == 0 {
		p.Count = 1
	}
	return nil
}

// TestCheckInput checks that an input's Validate runs whichever its
// receiver, and that a pointer receiver's changes reach the handler.
func TestCheckInput(t *testing.T) {
	if _, err := checkInput[valueChecked](valueChecked{}); !reflect.DeepEqual(err, &InputError{Problems: []string{"/name: must not be empty"}}) {
		t.Errorf("value receiver, empty name: got %v, want the problem", err)
	}
	if got, err := checkInput[valueChecked](valueChecked{Name: "a"}); err != nil || got.Name != "a" {
		t.Errorf("value receiver: got %+v, %v; want the input back", got, err)
	}
	if _, err := checkInput[pointerChecked](pointerChecked{Count: -1}); !reflect.DeepEqual(err, &InputError{Problems: []string{"/count: must not be negative"}}) {
		t.Errorf("pointer receiver, negative count: got %v, want the problem", err)
	}
	if got, err := checkInput[pointerChecked](pointerChecked{Name: "b"}); err != nil || got != (pointerChecked{Name: "b", Count: 1}) {
		t.Errorf("pointer receiver: got %+v, %v; want the default Validate filled", got, err)
	}
	if got, err := checkInput[int](7); err != nil || got != 7 {
		t.Errorf("no Validate: got %v, %v; want 7", got, err)
	}
	if _, err := checkInput[int]("7"); err == nil || err.Error() != "input is string, want int" {
		t.Errorf("wrong type: got %v, want an error naming both types", err)
	}
}

// TestCheckInputAllocs: a value receiver's check costs no allocation.
func TestCheckInputAllocs(t *testing.T) {
	var input any = valueChecked{Name: "a", Tags: []string{"x"}}
	if n := testing.AllocsPerRun(100, func() { _, _ = checkInput[valueChecked](input) }); n != 0 {
		t.Errorf("a value receiver's check allocates %v times, want 0", n)
	}
}

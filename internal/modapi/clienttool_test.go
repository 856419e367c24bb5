package modapi

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/sdk"
)

// Of answers given at once from many goroutines, exactly one is the
// call's; every other is dropped.
func TestClientGateOneAnswer(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	dropped := map[string]string{}
	g := NewClientGate(func(a sdk.ClientAnswer, why string) {
		mu.Lock()
		dropped[a.Text] = why
		mu.Unlock()
	})
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.Reply(sdk.ClientAnswer{Text: strconv.Itoa(i)})
		}()
	}
	a, err := g.Wait(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if len(dropped) != n-1 {
		t.Errorf("got %d answers dropped, want %d", len(dropped), n-1)
	}
	if _, ok := dropped[a.Text]; ok {
		t.Errorf("the call's answer %q was also dropped", a.Text)
	}
	g.Reply(sdk.ClientAnswer{Text: "after"})
	if why := dropped["after"]; why != DroppedLate {
		t.Errorf("an answer after the call: got %q, want %q", why, DroppedLate)
	}
}

func TestClientGateEnds(t *testing.T) {
	t.Parallel()
	var whys []string
	drop := func(_ sdk.ClientAnswer, why string) { whys = append(whys, why) }

	g := NewClientGate(drop)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Wait(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v, want context.Canceled", err)
	}
	g.Reply(sdk.ClientAnswer{})

	g = NewClientGate(drop)
	if _, err := g.Wait(context.Background(), time.Nanosecond); !errors.Is(err, ErrClientTimeout) {
		t.Errorf("no answer: got %v, want ErrClientTimeout", err)
	}
	g.Reply(sdk.ClientAnswer{})
	if len(whys) != 2 || whys[0] != DroppedLate || whys[1] != DroppedLate {
		t.Errorf("got drops %q, want two late ones", whys)
	}
}

func TestClientOutcome(t *testing.T) {
	t.Parallel()
	none := func([]byte) ([]string, error) { return nil, nil }
	widthNegative := func([]byte) ([]string, error) { return []string{"/width: must be at least 0, got -1"}, nil }
	tests := []struct {
		name     string
		rendered bool
		answer   sdk.ClientAnswer
		max      int
		check    func([]byte) ([]string, error)
		want     Outcome
	}{
		{"plain", false, sdk.ClientAnswer{Text: "t"}, 0, none, Outcome{Status: StatusCompleted, Text: "t"}},
		{"rendered", true, sdk.ClientAnswer{Text: "t", Result: []byte(`{}`)}, 0, none, Outcome{Status: StatusCompleted, Text: "t", Result: []byte(`{}`)}},
		{"error", false, sdk.ClientAnswer{Text: "ignored", Error: "no such window"}, 0, none, Outcome{Status: StatusFailed, Error: "no such window"}},
		{"error cut", false, sdk.ClientAnswer{Error: "abcdef"}, 3, none, Outcome{Status: StatusFailed, Error: "abc…"}},
		{"plain with a result", false, sdk.ClientAnswer{Text: "t", Result: []byte(`{}`)}, 0, none,
			Outcome{Status: StatusFailed, Error: "the client answered tool x with a typed result, which a plain tool does not have"}},
		{"rendered without one", true, sdk.ClientAnswer{Text: "t"}, 0, none,
			Outcome{Status: StatusFailed, Error: "the client answered tool x without its typed result"}},
		{"invalid result", true, sdk.ClientAnswer{Text: "t", Result: []byte(`{"width":-1}`)}, 0, widthNegative,
			Outcome{Status: StatusFailed, Error: "the client answered tool x with an invalid result:\n  /width: must be at least 0, got -1"}},
		{"rendered without text", true, sdk.ClientAnswer{Result: []byte(`{}`)}, 0, none,
			Outcome{Status: StatusFailed, Error: "the client answered tool x without text for the model"}},
		{"blank text", false, sdk.ClientAnswer{Text: " \n"}, 0, none,
			Outcome{Status: StatusFailed, Error: "the client answered tool x without text for the model"}},
		{"over the cap", false, sdk.ClientAnswer{Text: "abcd"}, 3, none,
			Outcome{Status: StatusFailed, Error: "tool x returned 4 bytes, over the 3-byte result limit; it should return a compact result"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClientOutcome("x", tt.rendered, tt.answer, tt.max, tt.check)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

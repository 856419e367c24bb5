package modapi

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk"
)

// ErrClientTimeout is ClientGate.Wait's error when no answer came in time.
var ErrClientTimeout = errors.New("the client did not answer in time")

// ClientGate admits a client's answers to one call of a tool that runs in
// the client: the first answer is the call's output; a later one, and one
// that comes after the call ended, is dropped and passed to its drop
// function. It is safe for concurrent use.
type ClientGate struct {
	drop  func(a sdk.ClientAnswer, why string)
	first chan sdk.ClientAnswer
	mu    sync.Mutex
	taken bool // an answer was admitted
	ended bool // the call ended; nothing more is admitted
}

// Why an answer was dropped.
const (
	DroppedSecond = "the call already had its answer"
	DroppedLate   = "the call had ended"
)

// NewClientGate returns a gate for one call; drop, when not nil, is told of
// each dropped answer and why (DroppedSecond, DroppedLate).
func NewClientGate(drop func(a sdk.ClientAnswer, why string)) *ClientGate {
	if drop == nil {
		drop = func(sdk.ClientAnswer, string) {}
	}
	return &ClientGate{drop: drop, first: make(chan sdk.ClientAnswer, 1)}
}

// Reply offers an answer.
func (g *ClientGate) Reply(a sdk.ClientAnswer) {
	g.mu.Lock()
	why := ""
	switch {
	case g.ended:
		why = DroppedLate
	case g.taken:
		why = DroppedSecond
	default:
		g.taken = true
		g.first <- a
	}
	g.mu.Unlock()
	if why != "" {
		g.drop(a, why)
	}
}

// Wait returns the first answer, or ctx's error when ctx ends first, or
// ErrClientTimeout when none came within timeout (0 or less: no limit).
// The call has ended when Wait returns: later answers are dropped, and so
// is an answer that raced with ctx or the timeout.
func (g *ClientGate) Wait(ctx context.Context, timeout time.Duration) (sdk.ClientAnswer, error) {
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	var err error
	select {
	case a := <-g.first:
		g.end()
		return a, nil
	case <-ctx.Done():
		err = ctx.Err()
	case <-expired:
		err = ErrClientTimeout
	}
	if a, ok := g.end(); ok {
		g.drop(a, DroppedLate)
	}
	return sdk.ClientAnswer{}, err
}

// end ends the call and returns an answer admitted but not taken.
func (g *ClientGate) end() (sdk.ClientAnswer, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ended = true
	select {
	case a := <-g.first:
		return a, true
	default:
		return sdk.ClientAnswer{}, false
	}
}

// ClientOutcome is the outcome of a call of the named tool that a client
// answered with a, as host and sdk/modtest judge it: failed with the
// answer's error, cut to max bytes; failed when its typed result does not
// fit the tool (a rendered tool needs one that check, its result schema's
// judge, finds no problems in; a plain tool has none); failed without
// text for the model; failed when over
// max bytes, as CapResult fails a mod's; else completed. A max of 0 or
// less means no cap.
func ClientOutcome(tool string, rendered bool, a sdk.ClientAnswer, max int, check func(result []byte) ([]string, error)) Outcome {
	if a.Error != "" {
		if max > 0 {
			a.Error = limits.Cut(a.Error, max)
		}
		return Outcome{Status: StatusFailed, Error: a.Error}
	}
	if msg := checkClientResult(tool, rendered, a.Result, check); msg != "" {
		return Outcome{Status: StatusFailed, Error: msg}
	}
	if strings.TrimSpace(a.Text) == "" {
		return Outcome{Status: StatusFailed, Error: words.ClientNoText(tool)}
	}
	o := Outcome{Status: StatusCompleted, Text: a.Text, Result: a.Result}
	CapResult(tool, &o, max)
	return o
}

// checkClientResult returns why a client's typed result does not fit the
// named tool, or "" when it does: a rendered tool needs one, without
// problems by check; a plain tool has none.
func checkClientResult(name string, rendered bool, result json.RawMessage, check func(result []byte) ([]string, error)) string {
	if !rendered {
		if len(result) > 0 {
			return words.ClientUnwantedResult(name)
		}
		return ""
	}
	if len(result) == 0 {
		return words.ClientNoResult(name)
	}
	problems, err := check(result)
	if err != nil {
		return err.Error()
	}
	if len(problems) > 0 {
		return words.ClientBadResult(name, problems)
	}
	return ""
}

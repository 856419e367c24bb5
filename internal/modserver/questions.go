package modserver

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/sdkrt"
)

// asking answers one run's questions from the answers the call was given,
// in order, and keeps the first questions no answer covers: the run's
// outcome asks them.
type asking struct {
	mu      sync.Mutex
	answers []modapi.Answered
	can     []modapi.QuestionKind
	// asked counts the questions the run asked so far.
	asked   int
	pending []modapi.Question
	// unasked are the kinds of the questions the caller could not put.
	unasked []modapi.QuestionKind
}

func newAsking(answers []modapi.Answered, can []modapi.QuestionKind) *asking {
	return &asking{answers: answers, can: can}
}

// Ask implements sdkrt.Asker.
func (a *asking) Ask(qs []sdkrt.Question) ([][]byte, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.pending != nil {
		// The handler asks on after a question it must wait for.
		return nil, sdkrt.ErrAsking
	}
	start := a.asked
	asked := make([]modapi.Question, len(qs))
	for i, q := range qs {
		pos := start + i
		key := q.Key
		if key == "" {
			key = fmt.Sprintf("q%d", pos+1)
		}
		asked[i] = modapi.Question{Kind: modapi.QuestionKind(q.Kind), Key: key, Params: q.Params, Position: pos}
		// A question answered already keeps its answer, even when its
		// kind can be asked no more.
		if k := asked[i].Kind; !slices.Contains(a.can, k) && !a.answered(asked[i]) {
			if !slices.Contains(a.unasked, k) {
				a.unasked = append(a.unasked, k)
			}
			return nil, errors.New(modapi.CannotAsk(k))
		}
	}
	out := make([][]byte, len(qs))
	a.asked += len(qs)
	for i, mq := range asked {
		if a.pending == nil && a.answered(mq) {
			out[i] = a.answers[mq.Position].Answer
			continue
		}
		a.pending = append(a.pending, mq)
	}
	if a.pending != nil {
		return nil, sdkrt.ErrAsking
	}
	return out, nil
}

// answered reports whether the call was given an answer to q.
func (a *asking) answered(q modapi.Question) bool {
	return q.Position < len(a.answers) && a.answers[q.Position].Question.Same(q)
}

// questions returns what the run asked that no answer covers, if any.
func (a *asking) questions() []modapi.Question {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pending
}

// failed is the outcome of a run that failed with err: when err says a
// question could not be asked, with the kinds the caller could not put.
func (a *asking) failed(err error) modapi.Outcome {
	o := failed(err)
	if errors.Is(err, sdkrt.ErrCannotAsk) {
		a.mu.Lock()
		o.Unasked = slices.Clone(a.unasked)
		a.mu.Unlock()
	}
	return o
}

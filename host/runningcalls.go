package host

import "sync"

// runningCalls are the tool calls a mod process runs now, so that a line
// the mod writes on its stderr names the call when only one runs. A nil
// *runningCalls (a mod in the host's process) tracks nothing.
type runningCalls struct {
	mu   sync.Mutex
	ids  map[string]int
	last string // the call that ended last
}

func (r *runningCalls) add(id string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	if r.ids == nil {
		r.ids = map[string]int{}
	}
	r.ids[id]++
	r.mu.Unlock()
}

func (r *runningCalls) remove(id string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	if r.ids[id]--; r.ids[id] <= 0 {
		delete(r.ids, id)
	}
	r.last = id
	r.mu.Unlock()
}

// tag returns the attribute that names the call a line of the mod's
// output belongs to: "call" when one call runs; "after_call", the call that
// ended last, when none runs (the output travels apart from the call's
// answer, and may arrive just after it); none when several run.
func (r *runningCalls) tag() (key, id string) {
	if r == nil {
		return "", ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch len(r.ids) {
	case 0:
		if r.last != "" {
			return "after_call", r.last
		}
	case 1:
		for id := range r.ids {
			return "call", id
		}
	}
	return "", ""
}

package modproc

import "sync"

// Calls are the tool calls a mod process runs now, so that a line
// the mod writes on its stderr names the call when only one runs. A nil
// *Calls (a mod in the host's process) tracks nothing.
type Calls struct {
	mu   sync.Mutex
	ids  map[string]int
	last string // the call that ended last
}

// Add notes that call id runs.
func (r *Calls) Add(id string) {
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

// Remove notes that call id ended.
func (r *Calls) Remove(id string) {
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

// Tag returns the attribute that names the call a line of the mod's
// output belongs to: "call" when one call runs; "after_call", the call that
// ended last, when none runs (the output travels apart from the call's
// answer, and may arrive just after it); none when several run.
func (r *Calls) Tag() (key, id string) {
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

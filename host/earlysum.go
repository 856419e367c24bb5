package host

import "sync/atomic"

// Once go env's answer and the inputs' digest come from the cache, the
// binary's checksum (SHA-256 of several megabytes), which a start waits for
// before it runs the binary, is the longest of the host's steps before a
// first start. So a call that will start its mod begins the start's look
// ahead (lookAhead: the newest record, its inputs' digest, its binary's
// checksum) at once, while the host checks the input and runs the hooks,
// and the start takes it. A look-ahead the call's start did not take is
// dropped when the call ends: what it read is only as current as the call.

// early is a look-ahead begun by a call, for its mod's start.
type early struct{ p atomic.Pointer[chan *ahead] }

// lookEarly begins the look-ahead of the mod's start, unless one is begun
// already, the mod runs in the host's process or the cache is prebuilt.
// The caller drops it when its call ends (dropEarly).
func (m *mod) lookEarly() {
	if m.inProcess != nil || m.early.p.Load() != nil {
		return
	}
	if m.h.prebuilt != nil {
		if idx, err := m.h.prebuilt(); idx != nil || err != nil {
			return
		}
	}
	ch := make(chan *ahead, 1)
	if m.early.p.CompareAndSwap(nil, &ch) {
		go func() { ch <- m.lookAhead() }()
	}
}

// takeEarly returns the look-ahead a call began, nil when none is.
func (m *mod) takeEarly() chan *ahead {
	if p := m.early.p.Swap(nil); p != nil {
		return *p
	}
	return nil
}

// dropEarly drops a look-ahead no start took.
func (m *mod) dropEarly() { m.early.p.Store(nil) }

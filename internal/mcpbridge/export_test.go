package mcpbridge

import "time"

// SealedAt returns the request state a server with key would have sealed
// at the time given for a call of tool with input that asked nothing yet.
func SealedAt(key []byte, at time.Time, tool string, input []byte) (string, error) {
	s, err := newStates(key, 0)
	if err != nil {
		return "", err
	}
	s.now = func() time.Time { return at }
	return s.seal("", tool, input, nil, nil)
}

// SessionDirectOff leaves every session call of h to the SDK.
func SessionDirectOff(h *HTTPHandler) { h.live = nil }

// SessionDirectServed counts the session calls h served itself.
func SessionDirectServed(h *HTTPHandler) int64 {
	if h.live == nil {
		return 0
	}
	return h.live.served.Load()
}

// SessionDirectHold sets how long h's session direct calls run before
// their event stream starts; below zero, before they run, as the SDK's
// streams do: then no answer goes as JSON.
func SessionDirectHold(h *HTTPHandler, d time.Duration) { h.jsonHold = d }

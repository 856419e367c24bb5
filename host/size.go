package host

import (
	"fmt"

	"github.com/modkit/modkit/internal/modapi"
)

// requestTooLarge refuses what, a part of a request of n bytes, when it is
// over Options.MaxRequestBytes, naming the limit. The host checks before
// any hook or mod sees the request, so the message limits between host and
// mods, derived from the same option, never refuse one.
func (h *Host) requestTooLarge(what string, n int) error {
	if n <= h.opts.MaxRequestBytes {
		return nil
	}
	return fmt.Errorf("%s is %d bytes, over the host's limit of %d bytes per request", what, n, h.opts.MaxRequestBytes)
}

// overLimit words a message the transport refused for its size. The host
// refuses oversize requests itself and caps results and activity in the
// mod, so this is a mod sending more than its limits allow, or a host
// started with other limits than the mod's.
func overLimit(err error, mod string) (string, bool) {
	te := modapi.AsTransport(err)
	switch {
	case te == nil:
		return "", false
	case te.Kind == modapi.TransportRequestTooLarge:
		return "the request to mod " + mod + " is over the message size limit: " + te.Msg, true
	case te.Kind == modapi.TransportResponseTooLarge:
		return "a message between the host and mod " + mod + " was over the message size limit: " + te.Msg, true
	}
	return "", false
}

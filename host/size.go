package host

import (
	"fmt"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
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

// overLimit words a message gRPC refused for its size. The host refuses
// oversize requests itself and caps results and activity in the mod, so
// this is a mod sending more than its limits allow, or a host started with
// other limits than the mod's.
func overLimit(err error, mod string) (string, bool) {
	s, ok := status.FromError(err)
	if !ok || s.Code() != codes.ResourceExhausted {
		return "", false
	}
	if strings.Contains(s.Message(), "trying to send") {
		return "the request to mod " + mod + " is over the message size limit: " + s.Message(), true
	}
	return "a message between the host and mod " + mod + " was over the message size limit: " + s.Message(), true
}

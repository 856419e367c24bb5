package modapi

import "errors"

// TransportError is a call to a mod that failed between the host and the
// mod's code rather than in it: the connection broke, the deadline passed,
// a message was over the size limit. The protocol client returns it for
// every failure of the wire, so callers branch on [TransportError.Kind],
// never on the wire library's codes or words.
type TransportError struct {
	// Kind says what failed.
	Kind TransportKind
	// Msg is the transport's own description, for people to read.
	Msg string
	// Err is the wire library's error.
	Err error
}

// TransportKind is what failed on the way to or from a mod.
type TransportKind int

// The kinds of transport failure.
const (
	// TransportOther is any failure not listed below.
	TransportOther TransportKind = iota
	// TransportBroken is a connection that broke or a mod process that is
	// gone or failed outside a handler; the process's exit says more.
	TransportBroken
	// TransportDeadline is a call whose deadline passed.
	TransportDeadline
	// TransportRequestTooLarge is a request over the message size limit.
	TransportRequestTooLarge
	// TransportResponseTooLarge is a message from the mod over the limit.
	TransportResponseTooLarge
)

func (e *TransportError) Error() string { return e.Err.Error() }

func (e *TransportError) Unwrap() error { return e.Err }

// AsTransport returns the TransportError in err's chain, or nil.
func AsTransport(err error) *TransportError {
	var te *TransportError
	if errors.As(err, &te) {
		return te
	}
	return nil
}

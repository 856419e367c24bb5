package sdkrt

// Action is a client action as a handler emitted it.
type Action struct {
	Kind string
	// Params are the parameters as JSON; nil when Err is set.
	Params []byte
	// Err is why the parameters could not be encoded.
	Err error
}

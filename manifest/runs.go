package manifest

// Runs says where a tool's calls run. The zero value, RunsInMod, is written
// as an absent "runs".
type Runs string

const (
	// RunsInMod: the mod's handler runs every call.
	RunsInMod Runs = ""
	// RunsInClient: the tool has no handler in the mod; the client
	// application that called it runs it and answers.
	RunsInClient Runs = "client"
	// RunsEither: the client application runs the tool when it handles it,
	// the mod's handler otherwise.
	RunsEither Runs = "either"
)

// InClient reports whether a client application may run the tool.
func (r Runs) InClient() bool { return r == RunsInClient || r == RunsEither }

// InMod reports whether the mod has a handler for the tool.
func (r Runs) InMod() bool { return r != RunsInClient }

func (r Runs) valid() bool { return r == RunsInMod || r == RunsInClient || r == RunsEither }

// Package modapi is the host's view of a mod: the [Mod] interface every
// call to a mod goes through, and the rules of a call that the mod's side
// and the host's side share.
//
// # Two implementations, one server
//
// A mod runs either in its own process, behind go-plugin's gRPC, or in the
// caller's process for tests. internal/protocol's GRPCClient implements
// Mod over the wire; internal/modserver's Server implements it by running
// the mod's handlers, and it is also what a mod process serves (sdk/serve
// wraps it in protocol's GRPCServer). sdk/modtest and the host's tests call
// a Server in process, so a call meets the same rules whichever way it
// goes. Callers see Go types only, never the wire's.
//
// # Rules
//
// The rules live here once: how activity accumulates ([Apply]), how big a
// tool's result or a command's message may be ([CapResult], [CapMessage]),
// how a failed call reads ([Outcome.Message], [InvalidInput], [Blocked]),
// what text a slash command receives ([SlashText]), how the approval step
// of a call ends ([Decide], [Denied], [Declined], [NoApprover],
// [NotAsked]), how a client's answers to a tool it runs are admitted and
// judged ([ClientGate], [ClientOutcome], [NoClient], [ClientTimedOut]) and
// how a wrong client action reads ([BadAction]). The host and sdk/modtest
// both use them, so a test reads what a model reads; the texts themselves
// are in internal/words, with every other problem a model reads.
package modapi

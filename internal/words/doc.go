// Package words words every problem and failure a model or a person
// reads about a mod's input and calls, in one place, so that every side that
// judges (a generated validator, the host's JSON Schema fallback, the
// mod's server, the host, sdk/modtest) says a thing the same way.
//
// # Problems
//
// A problem is a line "/path: what is wrong", the path a JSON Pointer, "/"
// for the root. The functions of schema.go ([Type], [Bound], [Missing], …)
// word what JSON Schema finds, each returning the text after "/path: ";
// those of json.go ([Problem], [Decode], [Encode]) word the failures of
// encoding/json. They speak JSON, never Go: a type, a package or a time
// layout never appears in them. A value from the input enters a problem
// only through [Echo], cut to limits.MaxEcho bytes.
//
// A list of problems is capped by [Problems] ("and 19950 more problems")
// and joined under a head by [Message], so a message is bounded whatever
// the input.
//
// # Calls
//
// The failures of a call as the model reads them after "Tool failed: ",
// and the question a person reads before approving one, are in calls.go: a
// result over its limit ([ResultTooBig]), a hook's refusal ([Blocked]), the
// ends of an approval ([Denied], [Dismissed], [NoApprover]), a client's
// answers and actions, questions that could not be asked.
// internal/modapi decides when each applies (modapi.Decide, CapResult, …);
// the host, sdk/modtest and the mod's server call these for the words, so
// each failure is worded once.
//
// sdk/jsoncheck re-exports the problem words its generated validators
// call (jsoncheck.MsgBound, …); every other caller uses this package.
package words

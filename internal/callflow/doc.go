// Package callflow is the one pipeline of a tool call, which the host and
// sdk/modtest both run over a [modapi.Mod]. [Call.Run] runs its steps,
// written once, in their one order:
//
//  1. where: a tool that runs only in the client, with no client at
//     hand, fails ([Where]);
//  2. check: the input judged against the tool's schema (by the mod's
//     generated validator, or by the environment in its place), so that
//     hooks, the approval rule and a client see only valid input;
//  3. hooks: the hooks on [sdk.ActionToolCall], in [HookOrder]; when
//     the environment lets them ([Call.Ahead]), the mod's check and its
//     hooks travel with the call and run before the handler, ending the
//     call as they would have apart;
//  4. approval: the tool's approval rule in the mod and, when it gives a
//     reason, the approver ([Approve], [AskApprover]);
//  5. client: a tool that runs in the client is answered there
//     ([ClientAnswered]), and the call ends;
//  6. call: the handler runs; when it asks questions that no answer
//     covers, they are answered ([Answer]) and the handler runs again
//     from the start with the answers, until it ends;
//  7. outcome: the result capped and its client actions checked against
//     the manifest ([ActionCheck]).
//
// # What an environment plugs in
//
// An [Env] is what is an environment's own: the host starts (and, after
// a wait on a person, restarts) the mod's process, bounds the mod's code
// by its timeouts, turns a broken connection into the mod's crash and
// traces each step; modtest calls the mod's server code in the test's
// process. What only one of them has (hooks in every loaded mod, an
// asker, a client handler, scripted answers) is a field of the [Call].
//
// # Endings
//
// Every way a call ends is an [Ending] built here ([Failed],
// [Cancelled], [InvalidInput], [NoClient], [Completed], [Refused],
// [ClientAnswered]); the host's CallResult and modtest's Outcome each copy
// it, so both read alike. What a step decides (an approval's verdict, a
// client's answer) comes from package modapi and how a failure reads from
// internal/words, so a test under modtest reads what a model reads from a
// host.
//
// Hooks before a command ([HookOrder], [HookSees], [Hooks]) and a prompt's
// questions ([Answer]) follow the same rules.
package callflow

// Package callflow is the one pipeline of a tool call, which the host and
// sdk/modtest both run over a [modapi.Mod]:
//
//  1. prepare: what the environment refuses before the mod sees the call
//     (an input over the size limit, a tool that runs only in a client
//     when there is none);
//  2. check: the input judged against the tool's schema, so that hooks,
//     the approval rule and a client see only valid input;
//  3. hooks: the hooks on [sdk.ActionToolCall], in [HookOrder];
//  4. approval: the tool's approval rule and, when it asks, the approver;
//  5. client: a tool that runs in the client is answered there, and the
//     call ends;
//  6. call: the handler runs; when it asks questions that no answer
//     covers, they are answered ([Answer]) and the handler runs again
//     from the start with the answers, until it ends.
//
// [Run] is that order, written once. Each environment supplies its steps
// ([Steps]) and its outcome type: the host's *host.CallResult, modtest's
// *modtest.Outcome. What a step decides (an approval's verdict, a
// client's answer) comes from package modapi and how a failure reads from
// internal/words, so a test under modtest reads what a model reads from a
// host.
//
// Every way a step ends a call is an [Ending] built here ([Failed],
// [Cancelled], [InvalidInput], [NoClient], [Completed], [Refused],
// [ClientAnswered]); the host's CallResult and modtest's Outcome each copy
// it, so both read alike. The approval step is [Approve], asking an
// approval.Approver through [AskApprover].
//
// Hooks before a command ([HookOrder], [HookSees], [Hooks]) and a prompt's
// questions ([Answer]) follow the same rules.
package callflow

// Package audit writes an audit trail: one JSON line per request that
// reaches a tool, prompt, resource or task, with who asked (the verified
// principal, or the local user), over which transport, what, the
// arguments' SHA-256, how it ended and how long it took.
//
// # Records
//
// A [Record] never holds an access token. Its arguments appear as their
// SHA-256 only, unless [Options].Arguments asks for the values too.
//
// # Writing
//
// A [Log] is safe for concurrent use and never holds a call up for a slow
// disk: records go through a bounded queue to one writer goroutine. When
// the queue stays full for [Options].Wait, or a write fails, records are
// dropped and counted; the first drop of each episode is said once on
// [Options].Errors (standard error), and the count when writing works
// again and on [Log.Close]. The log fails open, so that a full disk or a
// slow volume cannot take the server down with it; an operator who needs
// every record watches for that message (or for a gap between the
// records' times).
package audit

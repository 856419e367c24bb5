// Package taskstore keeps the MCP tasks of modhost's replicas: each task's
// status, status message, result or error, pending questions, lease and
// cancellation.
//
// # Stores
//
// [NewMemory] keeps tasks in one process: the default, for one replica.
// [NewRedis] keeps them in Redis, so that every replica started with the
// same store answers tasks/get and tasks/cancel for a task another replica
// runs; a cancellation reaches the running replica through Redis pub/sub.
// [Open] picks one from a --store value.
//
// # Consistency
//
// [Store.Update] changes a task atomically (a compare-and-set in Redis)
// and never changes a task that has ended: the first of a cancellation and
// an outcome wins, and the other is dropped. A task is kept for its TTL
// from creation, then forgotten (in memory, when [Store.Sweep] or a
// Create next sweeps; Redis expires it itself), unless
// [Store.Delete] forgets it first. A task records its Creator, so that
// every replica knows whose it is.
package taskstore

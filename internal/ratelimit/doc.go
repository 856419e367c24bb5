// Package ratelimit limits how fast each caller may send requests: a
// token bucket per key (a principal, or a client's address), refilled at
// a rate of N a second and holding at most N, so a caller may send a
// burst of N at once and N a second after.
//
// # Stores
//
// [Memory] keeps the buckets in this process. [Redis] keeps them in Redis,
// shared by every replica behind one URL: one Lua script reads, refills
// and takes from a bucket atomically, by Redis's clock (so the replicas'
// clocks do not matter), and lets an idle bucket expire once it would be
// full again. A token bucket, rather than a counter per one-second window
// (INCR and EXPIRE), is the limit the flag promises: a window lets 2N
// through across its edge, and keeps a caller refused for the rest of a
// second it used up. While Redis does not answer (within half a second),
// [Redis] limits each replica on its own, in memory, rather than refusing
// or admitting every request, and asks Redis again five seconds later.
package ratelimit

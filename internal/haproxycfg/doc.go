// Package haproxycfg writes the HAProxy configuration that balances
// modhost replicas: the one docs/deploy.md gives users, and the ones
// TestReplicas (internal/mcpbridge), the benchmark's balanced_vs_direct
// row and .ci/conformance.sh run (the script through the command
// cmd/haproxycfg, which prints [Config] for its flags). Writing it in one
// place keeps them alike; a test checks the documented one against
// [Config].
//
// # What it sets
//
// HTTP mode, keep-alive with the clients, and connections to the replicas
// kept open and shared by every client (http-reuse always), so that a
// request through the balancer costs no new connection on either side.
// The /mcp path balances round-robin with no stickiness (MCP 2026-07-28
// is stateless); with [Options.Sticky], the /sticky/ path keeps a
// 2025-11-25 session on the replica that opened it, by its
// Mcp-Session-Id; [Options.StickyDefault] does the same on /mcp, so that
// one URL serves both revisions. With [Options.Checks], a replica whose /readyz does not
// answer 200 twice in a row is taken out.
package haproxycfg

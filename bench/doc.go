// Bench measures what a modkit tool call costs next to the runtimes a Go team
// would pick instead, a bare hashicorp/go-plugin gRPC plugin and an MCP
// server built with the official Go SDK, and prints the ratios.
//
// Usage:
//
//	go run ./bench [-quick] [-run REGEXP] [-rounds N] [-cachedir DIR] [-readme README.md]
//
// Every comparison sends the same ~200-byte JSON payload to the same echo
// tool (package bench/internal/echo). Absolute times drift on shared
// machines; the two sides of a ratio are measured next to each other, round
// by round, alternating which goes first, and the reported ratio is the
// median of the per-round ratios, with their range as the spread.
//
// # Output
//
// A Markdown table on stdout, one row per measurement with both sides' p50
// and p99 (or rates), the ratio, its spread, the goal and whether it is met;
// then one "ratio NAME VALUE" line per row for scripts. Progress goes to
// stderr. The exit status is 1 when a measurement fails to run, not when a
// goal is missed. With -readme, the run also rewrites the results section
// of README.md: the table, with the date, the machine (cores, CPU model),
// the Go version and the commit it measured.
//
// # Measurements
//
// See README.md in this directory for what each row measures and the latest
// full run. The same calls are available to go test -bench:
//
//	go test ./bench -run '^$' -bench .
package main

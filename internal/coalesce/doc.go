// Package coalesce limits how often a stream of updates is shown: at most
// one update per interval, the latest one always delivered.
//
// A [Coalescer] passes the first update at once, keeps only the latest of
// those that follow within the interval, and delivers it when the interval
// ends; [Coalescer.Flush] delivers a held update at once, for the end of a
// stream. modhost uses it for a call's status updates, in MCP progress
// notifications and on the terminal.
package coalesce

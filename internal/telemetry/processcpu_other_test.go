//go:build !unix

package telemetry

import (
	"testing"
	"time"
)

// processCPU is measured on unix only: elsewhere the benchmark skips.
func processCPU(tb testing.TB) time.Duration {
	tb.Skip("the process's CPU time is read on unix only")
	return 0
}

//go:build !unix

package host_test

import "testing"

// readOnlyDir skips the test: only Unix systems make a directory
// read-only by its mode bits.
func readOnlyDir(t *testing.T) string {
	t.Skip("a read-only directory needs Unix mode bits")
	return ""
}

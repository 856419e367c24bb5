//go:build !linux && !darwin

package modbuild

import "io/fs"

// fileIdentity is not known here: go env's answer is not stored, and runs
// at each first start of a process.
func fileIdentity(fs.FileInfo) (string, bool) { return "", false }

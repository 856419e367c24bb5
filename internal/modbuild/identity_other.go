//go:build !linux && !darwin

package modbuild

import (
	"io/fs"
	"time"
)

// fileIdentity is not known here: go env's answer is not stored, and runs
// at each first start of a process.
func fileIdentity(fs.FileInfo) (string, bool) { return "", false }

// fileStamp is not known here: inputs are digested at each first start.
func fileStamp(fs.FileInfo) (string, time.Time, bool) { return "", time.Time{}, false }

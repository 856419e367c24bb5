//go:build !linux && !darwin

package filestamp

import (
	"io/fs"
	"time"
)

// Of is not known here: nothing is kept across processes.
func Of(fs.FileInfo) (string, time.Time, bool) { return "", time.Time{}, false }

// Private reports false: nothing is kept across processes here.
func Private(fs.FileInfo) bool { return false }

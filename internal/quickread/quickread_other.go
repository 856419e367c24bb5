//go:build !unix

package quickread

import "os"

// File reads the file at path: os.ReadFile.
func File(path string, _ int64) ([]byte, error) { return os.ReadFile(path) }

// FileInto reads the file at path: os.ReadFile.
func FileInto(_ []byte, path string, _ int64) ([]byte, error) { return os.ReadFile(path) }

package modproxytest

import (
	"io/fs"
	"time"
)

// sizeInfo is the fs.FileInfo of a given file's content.
type sizeInfo struct {
	name string
	size int64
}

func (i sizeInfo) Name() string       { return i.name }
func (i sizeInfo) Size() int64        { return i.size }
func (i sizeInfo) Mode() fs.FileMode  { return 0o644 }
func (i sizeInfo) ModTime() time.Time { return time.Time{} }
func (i sizeInfo) IsDir() bool        { return false }
func (i sizeInfo) Sys() any           { return nil }

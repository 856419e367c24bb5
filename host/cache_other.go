//go:build !unix

package host

import "io/fs"

// writableByOthers says who besides the user can write fi, or "". Outside
// Unix, permissions are access control lists that Go does not read: the
// cache relies on the user's profile directory being private.
func writableByOthers(fs.FileInfo) string { return "" }

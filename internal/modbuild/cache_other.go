//go:build !unix

package modbuild

import "io/fs"

// writableByOthers says who besides the user can write fi, or "". Outside
// Unix, permissions are access control lists that Go does not read: the
// cache relies on the user's profile directory being private.
func writableByOthers(fs.FileInfo) string { return "" }

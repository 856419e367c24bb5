//go:build unix

package modbuild

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// writableByOthers says who besides the user and root can write fi, or
// "". Root may own the cache: a prebuilt one in an image is root's, read
// by the user the host runs as.
func writableByOthers(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() && st.Uid != 0 {
		return fmt.Sprintf("owned by user %d, neither you nor root", st.Uid)
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Sprintf("writable by others (mode %04o)", perm)
	}
	return ""
}

//go:build unix

package modbuild

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// writableByOthers says who besides the user can write fi, or "".
func writableByOthers(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Sprintf("owned by user %d, not you", st.Uid)
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Sprintf("writable by others (mode %04o)", perm)
	}
	return ""
}

package modbuild

import (
	"fmt"
	"io/fs"
	"syscall"
)

// fileIdentity is fi's device, inode, mode, size and modification and
// change times: a file replaced or rewritten changes one of them, and the
// change time cannot be set back.
func fileIdentity(fi fs.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d %d %o %d %d %d.%d", st.Dev, st.Ino, fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), st.Ctimespec.Sec, st.Ctimespec.Nsec), true
}

package modbuild

import (
	"fmt"
	"io/fs"
	"syscall"
	"time"
)

// fileIdentity is fi's device, inode, mode, size and modification and
// change times: a file replaced or rewritten changes one of them, and the
// change time cannot be set back.
func fileIdentity(fi fs.FileInfo) (string, bool) {
	id, _, ok := fileStamp(fi)
	return id, ok
}

// fileStamp is fileIdentity and the change time.
func fileStamp(fi fs.FileInfo) (id string, changed time.Time, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", time.Time{}, false
	}
	changed = time.Unix(int64(st.Ctimespec.Sec), int64(st.Ctimespec.Nsec))
	return fmt.Sprintf("%d %d %o %d %d %d", st.Dev, st.Ino, fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), changed.UnixNano()), changed, true
}

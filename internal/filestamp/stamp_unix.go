//go:build linux || darwin

package filestamp

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// Of returns what names fi as it is now, and its change time; ok is false
// when this system does not say.
func Of(fi fs.FileInfo) (id string, changed time.Time, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", time.Time{}, false
	}
	changed = changeTime(st)
	return fmt.Sprintf("%d %d %o %d %d %d", st.Dev, st.Ino, fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), changed.UnixNano()), changed, true
}

// Private reports whether fi is no symbolic link and only its owner, the
// user or root, may write it.
func Private(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && fi.Mode()&fs.ModeSymlink == 0 && fi.Mode().Perm()&0o022 == 0 &&
		(int(st.Uid) == os.Getuid() || st.Uid == 0)
}

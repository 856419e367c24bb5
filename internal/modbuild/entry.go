package modbuild

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"time"
)

// BinaryName is the file name in bin/ of the binary built for the mod id
// and configuration key, whose SHA-256 is sum in hex.
func BinaryName(id, key, sum string) string { return id + "-" + key + "-" + sum[:24] + ExeSuffix }

// hexLen is the length of a key, and of the sum in a binary's name.
const hexLen = 24

// parseBinary returns the entry, <id>-<key>, of a binary's file name; ""
// for a binary named before names carried the key, <id>-<sum>, or another
// file.
func parseBinary(name string) string {
	rest := strings.TrimSuffix(name, ExeSuffix)
	if len(rest) < 2*hexLen+3 || !isHex(rest[len(rest)-hexLen:]) || rest[len(rest)-hexLen-1] != '-' {
		return ""
	}
	entry := rest[:len(rest)-hexLen-1]
	if !isEntry(entry) {
		return ""
	}
	return entry
}

// isEntry reports whether name is <id>-<key>.
func isEntry(name string) bool {
	return len(name) > hexLen+1 && name[len(name)-hexLen-1] == '-' && isHex(name[len(name)-hexLen:]) && !strings.HasPrefix(name, ".")
}

func isHex(s string) bool {
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}

// Refresh marks the entry of the record at recPath, whose binary is bin,
// used now, under the record's lock, so no trim removes it meanwhile. It
// returns false when a trim removed either first: then build again.
func Refresh(recPath, bin string, now time.Time) (bool, error) {
	unlock, err := LockFile(recPath + ".lock")
	if err != nil {
		return false, err
	}
	defer unlock()
	for _, p := range []string{recPath, bin} {
		if err := os.Chtimes(p, now, now); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return false, nil
			}
			return false, err
		}
	}
	return true, nil
}

// KeepUsed refreshes the files at paths every RefreshAfter until done is
// closed: a running process's binary is in use, however long it runs.
func KeepUsed(done <-chan struct{}, paths ...string) { touchEvery(done, RefreshAfter, paths...) }

// touchEvery sets the times of the files at paths to now every d until
// done is closed.
func touchEvery(done <-chan struct{}, d time.Duration, paths ...string) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case now := <-t.C:
			for _, p := range paths {
				os.Chtimes(p, now, now)
			}
		}
	}
}

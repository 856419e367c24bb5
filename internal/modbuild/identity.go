package modbuild

import (
	"io/fs"
	"time"

	"github.com/modkit/modkit/internal/filestamp"
)

// fileIdentity is what names fi as it is now (filestamp.Of).
func fileIdentity(fi fs.FileInfo) (string, bool) {
	id, _, ok := filestamp.Of(fi)
	return id, ok
}

// fileStamp is fileIdentity and the change time.
func fileStamp(fi fs.FileInfo) (string, time.Time, bool) { return filestamp.Of(fi) }

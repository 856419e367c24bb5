package dependencies

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// maxFileSize is the size above which a file is skipped, in bytes.
const maxFileSize = 4 << 20

// whyMissing is what readRegular says of a file that does not exist.
const whyMissing = "does not exist"

// readRegular reads the file name (a slash path) of the workspace root, or
// says why it will not, as examples/research does: it opens through the
// root, which refuses a name leading outside it, without blocking on a
// FIFO, and reads only a regular file, judged from the opened handle, up to
// maxFileSize.
func readRegular(root *os.Root, name string) (data []byte, why string) {
	f, err := root.OpenFile(name, openFlags, 0)
	if err != nil {
		switch msg := pathErr(err); {
		case errors.Is(err, fs.ErrNotExist):
			return nil, whyMissing
		case strings.Contains(msg, "escapes"): // the root's refusal
			return nil, "leads outside the workspace through a symbolic link"
		default:
			return nil, "cannot be read: " + msg
		}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, "cannot be read: " + pathErr(err)
	}
	if !info.Mode().IsRegular() {
		return nil, "is not a regular file"
	}
	if info.Size() > maxFileSize {
		return nil, fmt.Sprintf("is over %d MB", maxFileSize>>20)
	}
	buf := bytes.NewBuffer(make([]byte, 0, info.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, maxFileSize+1)); err != nil {
		return nil, "cannot be read: " + pathErr(err)
	}
	if buf.Len() > maxFileSize {
		return nil, fmt.Sprintf("grew over %d MB while it was read", maxFileSize>>20)
	}
	return buf.Bytes(), ""
}

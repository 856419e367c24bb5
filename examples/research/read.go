package research

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
)

// readRegular reads the file name (a slash path) of the workspace root, or
// says why it will not: it leads outside the root, it is not a regular
// file, or it is over MaxFileSize. This is the pattern to copy for reading
// a workspace safely while others may change it:
//
//   - open through the *os.Root, which refuses a name that leads outside
//     the root at the moment of opening, even a file swapped for a symbolic
//     link after it was listed;
//   - open without blocking (openFlags), so that a FIFO swapped in cannot
//     hang the call, and decide what the file is from the opened handle
//     (Stat on the *os.File), never from the path, which may by now name
//     something else;
//   - read no more than the limit, even if the file grows meanwhile.
func readRegular(root *os.Root, name string) (data []byte, why string) {
	f, err := root.OpenFile(name, openFlags, 0)
	if err != nil {
		return nil, unreadable(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, "cannot be read: " + unwrapPathError(err)
	}
	if !info.Mode().IsRegular() {
		return nil, "is not a regular file"
	}
	if info.Size() > MaxFileSize {
		return nil, fmt.Sprintf("is %s, over the %s limit", size(info.Size()), size(MaxFileSize))
	}
	buf := bytes.NewBuffer(make([]byte, 0, info.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxFileSize+1)); err != nil {
		return nil, "cannot be read: " + unwrapPathError(err)
	}
	if buf.Len() > MaxFileSize {
		return nil, fmt.Sprintf("grew over the %s limit while it was read", size(MaxFileSize))
	}
	return buf.Bytes(), ""
}

// dirRoots opens the directories of a listing as roots of their own, each
// through the workspace root and once while its files are read, so that
// opening a file takes one step, not one per directory of its path. The
// listing is in lexical order, so a directory's files come together.
type dirRoots struct {
	root *os.Root
	name string   // the directory open, "" for none
	dir  *os.Root // it, opened through root
}

// open returns the root of the directory of the slash path name, and the
// name's last element.
func (d *dirRoots) open(name string) (*os.Root, string, error) {
	dir, base := path.Split(name)
	if dir == "" {
		return d.root, base, nil
	}
	if dir != d.name {
		d.close()
		sub, err := d.root.OpenRoot(dir)
		if err != nil {
			return nil, "", err
		}
		d.name, d.dir = dir, sub
	}
	return d.dir, base, nil
}

func (d *dirRoots) close() {
	if d.dir != nil {
		d.dir.Close()
		d.name, d.dir = "", nil
	}
}

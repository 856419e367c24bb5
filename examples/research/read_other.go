//go:build !unix

package research

import "os"

// openFlags open a workspace file for reading; only Unix systems have FIFOs
// in the file tree.
const openFlags = os.O_RDONLY

//go:build !unix

package dependencies

import "os"

// openFlags open a workspace file for reading; only Unix systems have FIFOs
// in the file tree.
const openFlags = os.O_RDONLY

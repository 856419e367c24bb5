//go:build !unix

package crashy

import "errors"

// scribbleOnLane fails: there is no call lane on this platform.
func scribbleOnLane() error { return errors.New("crashy: no call lane") }

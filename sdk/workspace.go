package sdk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Workspace returns the session's workspace root as an *os.Root, opened on
// first use and closed when the call ends; do not close it yourself.
//
// Read the workspace through it, never by path: an *os.Root refuses, at the
// moment a file is opened, any name that leads outside the root through ".."
// or a symbolic link, even a link swapped in while the tool runs, so a
// check made earlier cannot be raced. It fails when the session has no
// workspace or its root cannot be opened; the error never names the
// directory, so it may reach the model.
func (c *ToolContext) Workspace() (*os.Root, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return nil, errors.New("the call has ended")
	}
	if c.root == nil && c.rootErr == nil {
		c.root, c.rootErr = c.Session().OpenWorkspace()
	}
	return c.root, c.rootErr
}

// OpenWorkspace opens the workspace root as an *os.Root, for commands and
// hooks, which close it when done; tools use ToolContext.Workspace. Its
// errors never name the directory.
func (s Session) OpenWorkspace() (*os.Root, error) {
	if s.Workspace == "" {
		return nil, errors.New("the session has no workspace root")
	}
	r, err := os.OpenRoot(s.Workspace)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	return r, nil
}

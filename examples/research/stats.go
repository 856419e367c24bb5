package research

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/modkit/modkit/sdk"
)

// workspaceStats counts the files, directories and bytes under the workspace
// root, leaving out .git and the like. It takes no arguments.
func workspaceStats(ctx context.Context, env *sdk.Env, args json.RawMessage) (string, error) {
	if len(args) > 0 && strings.TrimSpace(string(args)) != "null" && strings.TrimSpace(string(args)) != "{}" {
		return "", errors.New("research.stats takes no arguments")
	}
	root, err := env.Session.OpenWorkspace()
	if err != nil {
		return "", err
	}
	defer root.Close()
	var files, dirs, links, unreadable int
	var bytes int64
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			if p == "." {
				return err
			}
			unreadable++
			return nil
		}
		switch {
		case d.IsDir():
			if skipDirs[d.Name()] && p != "." {
				return fs.SkipDir
			}
			if p != "." {
				dirs++
			}
		case d.Type()&fs.ModeSymlink != 0:
			links++
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				unreadable++
				return nil
			}
			files++
			bytes += info.Size()
		}
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("count files: %s", unwrapPathError(err))
	}
	msg := fmt.Sprintf("The workspace has %s (%s) in %s", plural(files, "file", "files"), size(bytes),
		plural(dirs+1, "directory", "directories"))
	if links > 0 {
		msg += ", and " + plural(links, "symbolic link", "symbolic links")
	}
	msg += ", not counting .git, .hg and .svn."
	if unreadable > 0 {
		msg += fmt.Sprintf(" %s could not be read.", plural(unreadable, "entry", "entries"))
	}
	return msg, nil
}

// refuseWholeDiskSearch blocks research_search_workspace when the workspace
// root is the filesystem root or the home directory: a search there reads
// far more than anyone means to, including private files.
func refuseWholeDiskSearch(ctx context.Context, env *sdk.Env, a sdk.Action) error {
	if a.Tool != "research_search_workspace" {
		return nil
	}
	ws := env.Session.Workspace
	if ws == "" {
		return nil // the tool itself explains that there is no workspace
	}
	clean := filepath.Clean(ws)
	if clean == filepath.VolumeName(clean)+string(filepath.Separator) {
		return errors.New("refusing to search the filesystem root: open a project directory as the workspace")
	}
	if home, err := os.UserHomeDir(); err == nil && sameDir(clean, home) {
		return errors.New("refusing to search the whole home directory: open a project directory as the workspace")
	}
	return nil
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

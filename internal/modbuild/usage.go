package modbuild

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DefaultRoot is the build cache's directory when none is chosen:
// modkit under the user's cache directory.
func DefaultRoot() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory: %w", err)
	}
	return filepath.Join(dir, "modkit"), nil
}

// Part is one kind of file in the cache and their total size.
type Part struct {
	// Name says what the files are: "binaries", "build records", "generated
	// sources", "module copies" or "other".
	Name string `json:"name"`
	// Dir is the part's directory; "" for other.
	Dir   string `json:"dir,omitempty"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
}

// Usage measures the cache at root, part by part, without creating it: a
// root that does not exist is an empty cache.
func Usage(root string) ([]Part, error) {
	parts := []Part{
		{Name: "binaries", Dir: "bin"},
		{Name: "build records", Dir: "rec"},
		{Name: "generated sources", Dir: "src"},
		{Name: "module copies", Dir: "mods"},
		{Name: "other"},
	}
	byDir := map[string]*Part{}
	for i := range parts[:len(parts)-1] {
		byDir[parts[i].Dir] = &parts[i]
		parts[i].Dir = filepath.Join(root, parts[i].Dir)
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		rel, _ := filepath.Rel(root, path)
		p := byDir[firstElem(rel)]
		if p == nil {
			p = &parts[len(parts)-1]
		}
		p.Files++
		p.Bytes += fi.Size()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("build cache: %w", err)
	}
	return parts, nil
}

// firstElem is the first element of a relative path.
func firstElem(rel string) string {
	for {
		dir := filepath.Dir(rel)
		if dir == "." || dir == rel {
			return rel
		}
		rel = dir
	}
}

package filestamp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Load reads into v the answer kept under name in dir (a directory of the
// host's cache); false when there is none, or the cache, dir or the file is
// not private (Private).
func Load(dir, name string, v any) bool {
	path := filepath.Join(dir, fileName(name))
	for _, p := range []string{filepath.Dir(dir), dir, path} {
		if fi, err := os.Lstat(p); err != nil || !Private(fi) {
			return false
		}
	}
	data, err := os.ReadFile(path)
	return err == nil && json.Unmarshal(data, v) == nil
}

// Store keeps v under name in dir, creating dir when its parent, the
// cache, exists and is private; errors are ignored: the answer is computed
// again next time.
func Store(dir, name string, v any) {
	if fi, err := os.Lstat(filepath.Dir(dir)); err != nil || !Private(fi) {
		return
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || !Private(fi) {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil && cerr == nil {
		os.Rename(f.Name(), filepath.Join(dir, fileName(name)))
	}
}

// fileName is the file of name: a hash, since names are paths.
func fileName(name string) string {
	sum := sha256.Sum256([]byte(name))
	return hex.EncodeToString(sum[:12]) + ".json"
}

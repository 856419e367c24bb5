package modlock

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/module"

	"github.com/modkit/modkit/internal/modbuild"
	"github.com/modkit/modkit/manifest"
)

// FileName is the lock file's name, in the directory modhost runs in.
const FileName = "mods.lock"

// Entry pins one mod.
type Entry struct {
	// Mod is the import path of the mod's Go package.
	Mod string
	// Module and Version name the module version holding the package.
	Module, Version string
	// Zip is the h1: hash of the module's zip, as go.sum records it.
	Zip string
	// GoMod is the h1: hash of the module's go.mod.
	GoMod string
	// Manifest is "sha256:" and the hex SHA-256 of the mod's
	// mod.manifest.json.
	Manifest string
	// Permissions are what the block's allow lines allow the mod, which
	// must be what its manifest declares; nil when the block has no allow
	// line (a lock written before modhost recorded them), and then the
	// manifest's hash alone pins them.
	Permissions *manifest.Permissions

	// line is the block's first line in the lock file, and allowLine the
	// line of each allow line's value, when the entry was parsed.
	line      int
	allowLine map[string]int
}

// Equal reports whether e and o pin the same mod with the same hashes and
// allow the same permissions.
func (e *Entry) Equal(o *Entry) bool {
	if e.Mod != o.Mod || e.Module != o.Module || e.Version != o.Version || e.Zip != o.Zip || e.GoMod != o.GoMod || e.Manifest != o.Manifest {
		return false
	}
	if (e.Permissions == nil) != (o.Permissions == nil) {
		return false
	}
	return e.Permissions == nil || slices.Equal(AllowLines(e.Permissions), AllowLines(o.Permissions))
}

// Rel returns the mod's directory inside its module, slash-separated, ""
// for the module's root.
func (e *Entry) Rel() string {
	rel, _ := strings.CutPrefix(e.Mod, e.Module)
	return strings.TrimPrefix(rel, "/")
}

// String returns module@version, and the package when it is not the
// module's root.
func (e *Entry) String() string {
	if e.Mod == e.Module {
		return e.Module + "@" + e.Version
	}
	return e.Module + "@" + e.Version + " (" + e.Mod + ")"
}

// check reports what is wrong with a complete entry's values.
func (e *Entry) check() error {
	if err := module.Check(e.Module, e.Version); err != nil {
		return err
	}
	if e.Mod != e.Module && !strings.HasPrefix(e.Mod, e.Module+"/") {
		return fmt.Errorf("mod %s is not a package of module %s", e.Mod, e.Module)
	}
	if err := module.CheckImportPath(e.Mod); err != nil {
		return err
	}
	for _, h := range []struct{ name, value string }{{"zip", e.Zip}, {"go.mod", e.GoMod}} {
		if !validH1(h.value) {
			return fmt.Errorf("%s: %q is not an h1: hash (h1: and the base64 of a SHA-256)", h.name, h.value)
		}
	}
	if !validSHA256(e.Manifest) {
		return fmt.Errorf("manifest: %q is not sha256: and 64 hex digits", e.Manifest)
	}
	if problems := e.Permissions.Problems(); len(problems) > 0 {
		return fmt.Errorf("allow: %s", problems[0].String())
	}
	return nil
}

func validH1(s string) bool {
	b64, ok := strings.CutPrefix(s, "h1:")
	if !ok {
		return false
	}
	sum, err := base64.StdEncoding.DecodeString(b64)
	return err == nil && len(sum) == 32
}

func validSHA256(s string) bool {
	h, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(h) != 64 || strings.ToLower(h) != h {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

// header opens every lock file.
const header = `# mods.lock: the mods modhost installed from Go modules. modhost get, update
# and remove write it; every modhost command checks the mods against it.
# Commit it; do not edit it by hand.
`

// Format returns the lock file of the entries, sorted by mod.
func Format(entries []Entry) []byte {
	sorted := slices.Clone(entries)
	slices.SortFunc(sorted, func(a, b Entry) int { return strings.Compare(a.Mod, b.Mod) })
	var b bytes.Buffer
	b.WriteString(header)
	for _, e := range sorted {
		fmt.Fprintf(&b, "\nmod %s\n", e.Mod)
		fmt.Fprintf(&b, "\tmodule   %s %s\n", e.Module, e.Version)
		fmt.Fprintf(&b, "\tzip      %s\n", e.Zip)
		fmt.Fprintf(&b, "\tgo.mod   %s\n", e.GoMod)
		fmt.Fprintf(&b, "\tmanifest %s\n", e.Manifest)
		if e.Permissions != nil {
			for _, l := range AllowLines(e.Permissions) {
				fmt.Fprintf(&b, "\tallow    %s\n", l)
			}
		}
	}
	return b.Bytes()
}

// ParseError lists the problems of a lock file, each "file:line: what".
type ParseError struct {
	Problems []string
}

func (e *ParseError) Error() string { return strings.Join(e.Problems, "\n") }

// Parse reads a lock file; name is its name in error messages. It reports
// every problem at once.
func Parse(name string, data []byte) ([]Entry, error) {
	var (
		entries  []Entry
		problems []string
		cur      *Entry
		start    int
		seen     map[string]bool
	)
	fail := func(line int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s:%d: %s", name, line, fmt.Sprintf(format, args...)))
	}
	byMod := map[string]int{}
	finish := func() {
		if cur == nil {
			return
		}
		var missing []string
		for _, k := range []string{"module", "zip", "go.mod", "manifest"} {
			if !seen[k] {
				missing = append(missing, k)
			}
		}
		switch {
		case len(missing) > 0:
			fail(start, "mod %s: no %s", cur.Mod, strings.Join(missing, ", "))
		default:
			if err := cur.check(); err != nil {
				fail(start, "mod %s: %v", cur.Mod, err)
			} else if prev, dup := byMod[cur.Mod]; dup {
				fail(start, "mod %s is locked twice (first at line %d)", cur.Mod, prev)
			} else {
				byMod[cur.Mod] = start
				entries = append(entries, *cur)
			}
		}
		cur = nil
	}
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		line = strings.TrimSuffix(line, "\r")
		text := strings.TrimSpace(line)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		indented := line[0] == '\t' || line[0] == ' '
		if !indented {
			finish()
			if f[0] != "mod" || len(f) != 2 {
				fail(n, "want a block's first line, mod PACKAGE, got %q", text)
				continue
			}
			cur, start, seen = &Entry{Mod: f[1], line: n}, n, map[string]bool{}
			continue
		}
		if cur == nil {
			fail(n, "indented line outside a mod block: %q", text)
			continue
		}
		key := f[0]
		if key == "allow" {
			value := strings.TrimSpace(strings.TrimPrefix(text, key))
			if err := allow(cur, value, n); err != nil {
				fail(n, "%v", err)
			}
			continue
		}
		want := 2
		if key == "module" {
			want = 3
		}
		switch {
		case key != "module" && key != "zip" && key != "go.mod" && key != "manifest":
			fail(n, "unknown key %q; want module, zip, go.mod, manifest or allow", key)
			continue
		case seen[key]:
			fail(n, "%s given twice", key)
			continue
		case len(f) != want:
			fail(n, "%s takes %d values, got %d", key, want-1, len(f)-1)
			continue
		}
		seen[key] = true
		switch key {
		case "module":
			cur.Module, cur.Version = f[1], f[2]
		case "zip":
			cur.Zip = f[1]
		case "go.mod":
			cur.GoMod = f[1]
		case "manifest":
			cur.Manifest = f[1]
		}
	}
	finish()
	if len(problems) > 0 {
		return nil, &ParseError{Problems: problems}
	}
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Mod, b.Mod) })
	return entries, nil
}

// allow adds to e the permission of its allow line n, whose value is
// value.
func allow(e *Entry, value string, n int) error {
	if e.Permissions == nil {
		e.Permissions, e.allowLine = &manifest.Permissions{}, map[string]int{}
	}
	if value == allowNone || e.allowLine[allowNone] > 0 {
		if len(e.allowLine) > 0 {
			return errors.New("allow none must be the block's only allow line")
		}
		e.allowLine[allowNone] = n
		return nil
	}
	if err := addAllow(e.Permissions, value); err != nil {
		return err
	}
	lines := AllowLines(e.Permissions)
	for _, l := range lines {
		if _, ok := e.allowLine[l]; !ok {
			e.allowLine[l] = n
		}
	}
	return nil
}

// Read reads the lock file at path; a missing file is no entries.
func Read(path string) ([]Entry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Write writes the entries to the lock file at path, through a temporary
// file renamed over it.
func Write(path string, entries []Entry) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".mods.lock-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(Format(entries)); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Edit rewrites the lock file at path with edit applied to its entries,
// read afresh, holding a lock file beside it (.mods.lock.lock), so that
// processes editing one lock file at once each keep the others' changes.
func Edit(path string, edit func([]Entry) []Entry) error {
	lockPath := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
	unlock, err := modbuild.LockFile(lockPath)
	if err != nil {
		return fmt.Errorf("lock %s: %v", path, err)
	}
	defer unlock()
	entries, err := Read(path)
	if err != nil {
		return err
	}
	return Write(path, edit(entries))
}

package modbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// A host starting in a new process would run go env before every first
// start of a mod, for the settings that make the build's key: a process of
// the go command, 5–25 ms, most of a cold start. The cache keeps the
// answer, in env/<hash of the module directory>.json, with a print of
// everything the answer depends on besides the go command's own code:
//
//   - the directory and the environment variables go env may read
//     (goEnvReads);
//   - the go command PATH finds, by path, resolved path and file identity
//     (device, inode, size, modification and change times): an upgrade
//     replaces or rewrites it;
//   - each PATH directory's identity, whose times change when a program is
//     added or removed there: whether a C compiler is found decides
//     CGO_ENABLED's default;
//   - the content of go.mod and go.work, or their absence, in the
//     directory and every directory above it: they make GOMOD and GOWORK,
//     and their go and toolchain lines may switch the go command to
//     another release;
//   - the content of the go env -w file and of go.env in each directory
//     GOROOT may be, the answer's GOROOT being one of them.
//
// An answer is used only while its print is the print made now, and
// stored only when the print taken before go env ran is the one taken
// after, so a file changed meanwhile is not taken for the answer's.
// Settings the print cannot vouch for are never stored: a GOROOT found
// elsewhere (set by the go env -w file, say), or GOFLAGS naming another
// go.mod (-modfile).
const envPrintVersion = "modkit go env 1"

// envEntry is one stored answer.
type envEntry struct {
	Print string            `json:"print"`
	Vars  map[string]string `json:"vars"`
}

// envPrint is the print of what go env's answer for dir depends on, and
// the directories GOROOT may be; ok is false when it cannot be made (no
// go command on PATH, a file that cannot be examined), so go env runs.
func envPrint(dir string) (print string, goroots []string, ok bool) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", envPrintVersion, dir)
	var environ []string
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); goEnvReads(name) {
			environ = append(environ, kv)
		}
	}
	slices.Sort(environ)
	for _, kv := range environ {
		fmt.Fprintf(h, "env %s\x00", kv)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return "", nil, false
	}
	if goCmd, err = filepath.Abs(goCmd); err != nil {
		return "", nil, false
	}
	real, err := filepath.EvalSymlinks(goCmd)
	if err != nil || !writeIdentity(h, "go "+goCmd+" "+real, real) {
		return "", nil, false
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d == "" {
			d = "."
		}
		if !writeIdentity(h, "path "+d, d) {
			return "", nil, false
		}
	}
	for d := dir; ; d = filepath.Dir(d) {
		for _, name := range []string{"go.mod", "go.work"} {
			if !writeContent(h, filepath.Join(d, name)) {
				return "", nil, false
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if f := os.Getenv("GOWORK"); f != "" && f != "off" && !writeContent(h, f) {
		return "", nil, false
	}
	if f := envFile(); f != "" && !writeContent(h, f) {
		return "", nil, false
	}
	goroots = gorootCandidates(goCmd, real)
	for _, r := range goroots {
		if !writeContent(h, filepath.Join(r, "go.env")) {
			return "", nil, false
		}
	}
	return hex.EncodeToString(h.Sum(nil)), goroots, true
}

// goEnvReads reports whether the go command's answer for buildVars may
// depend on the environment variable name: its own settings (GO…, CGO_…),
// the C compiler that decides CGO_ENABLED's default, PATH, and the
// directories that place the go env -w file and the module cache.
func goEnvReads(name string) bool {
	switch name {
	case "PATH", "HOME", "XDG_CONFIG_HOME", "CC", "CXX":
		return true
	}
	return strings.HasPrefix(name, "GO") || strings.HasPrefix(name, "CGO_")
}

// writeIdentity writes what names the file at path as it is now
// (fileIdentity), or its absence. false when it cannot be examined.
func writeIdentity(h hash.Hash, label, path string) bool {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(h, "%s absent\x00", label)
		return true
	}
	if err != nil {
		return false
	}
	id, ok := fileIdentity(fi)
	if !ok {
		return false
	}
	fmt.Fprintf(h, "%s %s\x00", label, id)
	return true
}

// writeContent writes the file's name and content, or its absence. false
// when it cannot be read.
func writeContent(h hash.Hash, path string) bool {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		fmt.Fprintf(h, "file %s absent\x00", path)
	case err != nil:
		return false
	default:
		fmt.Fprintf(h, "file %s %d\x00", path, len(data))
		h.Write(data)
	}
	return true
}

// envFile is the go env -w file, as the go command finds it: $GOENV, or
// go/env in the user's configuration directory; "" for none.
func envFile() string {
	if f := os.Getenv("GOENV"); f != "" {
		if f == "off" {
			return ""
		}
		return f
	}
	dir, err := os.UserConfigDir()
	if err != nil || dir == "" {
		return ""
	}
	return filepath.Join(dir, "go", "env")
}

// gorootCandidates are the directories the go command at goCmd (resolved:
// real) may take for GOROOT: $GOROOT, or two or three levels above it.
func gorootCandidates(goCmd, real string) []string {
	if r := os.Getenv("GOROOT"); r != "" {
		return []string{filepath.Clean(r)}
	}
	var dirs []string
	for _, exe := range []string{goCmd, real} {
		for _, up := range []string{"../..", "../../.."} {
			if d := filepath.Join(exe, up); !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// storable reports whether the print vouches for vars: GOROOT is one of
// goroots and GOFLAGS names no other go.mod.
func storable(vars map[string]string, goroots []string) bool {
	return slices.Contains(goroots, filepath.Clean(vars["GOROOT"])) &&
		!strings.Contains(vars["GOFLAGS"], "modfile") && !strings.Contains(os.Getenv("GOFLAGS"), "modfile")
}

// envPath is the file of dir's answer in the cache at root.
func envPath(root, dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(root, "env", hex.EncodeToString(sum[:12])+".json")
}

// storedEnv returns the answer stored for dir in the cache at root while
// its print is print; nil otherwise.
func storedEnv(root, dir, print string, goroots []string) map[string]string {
	path := envPath(root, dir)
	if CheckPrivate(root, true) != nil || CheckPrivate(filepath.Dir(path), true) != nil || CheckPrivate(path, false) != nil {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var e envEntry
	if json.Unmarshal(data, &e) != nil || e.Print != print || e.Vars == nil || !storable(e.Vars, goroots) {
		return nil
	}
	return e.Vars
}

// storeEnv keeps vars, go env's answer for dir made while the print was
// print, in the cache at root, when the cache exists; errors are ignored,
// the next start runs go env again.
func storeEnv(root, dir, print string, vars map[string]string) {
	envDir := filepath.Join(root, "env")
	if CheckPrivate(root, true) != nil {
		return
	}
	if err := os.Mkdir(envDir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return
	}
	if CheckPrivate(envDir, true) != nil {
		return
	}
	data, err := json.Marshal(envEntry{Print: print, Vars: vars})
	if err == nil {
		writeReadOnly(envPath(root, dir), data)
	}
}

// cachedGoEnv is go env's answer for dir (a module's root), from the cache
// at root when its print holds, else from run, stored when the print
// held while it ran.
func cachedGoEnv(root, dir string, run func() (map[string]string, error)) (map[string]string, error) {
	if !filepath.IsAbs(dir) {
		return run()
	}
	before, goroots, ok := envPrint(dir)
	if !ok {
		return run()
	}
	if vars := storedEnv(root, dir, before, goroots); vars != nil {
		return vars, nil
	}
	vars, err := run()
	if err != nil {
		return nil, err
	}
	if after, _, ok := envPrint(dir); ok && after == before && storable(vars, goroots) {
		storeEnv(root, dir, before, vars)
	}
	return vars, nil
}

package dependencies

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// module is one Go module of the workspace.
type module struct {
	path string // module path from go.mod
	dir  string // absolute directory
}

// pkg is one package found in the workspace.
type pkg struct {
	path    string   // import path
	dir     string   // slash path relative to the workspace root
	imports []string // sorted, without duplicates
}

// graph is the workspace's packages and who imports whom.
type graph struct {
	modules  []module
	pkgs     map[string]*pkg
	importer map[string][]string // imported path -> importing workspace packages, sorted
	problems []string            // files that could not be read or parsed
}

// moduleDir is a directory of a module that may hold a package.
type moduleDir struct {
	mod module
	dir string
}

// progress is told about the scan as it goes: status lines and log entries.
type progress interface {
	Status(string)
	Log(string)
}

// loadGraph reads the modules under root and the imports of their packages.
func loadGraph(ctx context.Context, root string, tests bool, p progress) (*graph, error) {
	root, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %s", pathErr(err))
	}
	mods, err := findModules(root)
	if err != nil {
		return nil, err
	}
	g := &graph{modules: mods, pkgs: map[string]*pkg{}, importer: map[string][]string{}}
	var dirs []moduleDir
	for _, m := range mods {
		ds, err := packageDirs(ctx, m.dir)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			dirs = append(dirs, moduleDir{m, d})
		}
	}
	fset := token.NewFileSet()
	for i, d := range dirs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if i%25 == 0 {
			p.Status(fmt.Sprintf("Reading %d of %d directories…", i+1, len(dirs)))
		}
		rel, _ := filepath.Rel(d.mod.dir, d.dir)
		importPath := d.mod.path
		if rel != "." {
			importPath = path.Join(d.mod.path, filepath.ToSlash(rel))
		}
		wsRel, _ := filepath.Rel(root, d.dir)
		pk, err := readPackage(fset, d.dir, importPath, tests, g, root)
		if err != nil {
			return nil, err
		}
		if pk != nil {
			pk.dir = filepath.ToSlash(wsRel)
			g.pkgs[importPath] = pk
		}
	}
	for _, pk := range g.pkgs {
		for _, imp := range pk.imports {
			g.importer[imp] = append(g.importer[imp], pk.path)
		}
	}
	for _, list := range g.importer {
		sort.Strings(list)
	}
	for _, msg := range g.problems {
		p.Log(msg)
	}
	return g, nil
}

// readPackage parses the import blocks of the .go files in dir. It returns
// nil when dir holds no Go package.
func readPackage(fset *token.FileSet, dir, importPath string, tests bool, g *graph, root string) (*pkg, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		g.problems = append(g.problems, fmt.Sprintf("Skipped %s: %s.", relTo(root, dir), pathErr(err)))
		return nil, nil
	}
	seen := map[string]bool{}
	files := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			continue
		}
		if strings.HasSuffix(name, "_test.go") && !tests {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ImportsOnly)
		if err != nil {
			g.problems = append(g.problems, fmt.Sprintf("Skipped %s: it does not parse.", relTo(root, filepath.Join(dir, name))))
			continue
		}
		files++
		for _, spec := range f.Imports {
			p, err := strconv.Unquote(spec.Path.Value)
			if err != nil || p == importPath || p == "C" {
				continue
			}
			seen[p] = true
		}
	}
	if files == 0 {
		return nil, nil
	}
	pk := &pkg{path: importPath}
	for p := range seen {
		pk.imports = append(pk.imports, p)
	}
	sort.Strings(pk.imports)
	return pk, nil
}

// findModules returns the modules of the workspace: those go.work uses, or
// the one module whose go.mod is at root.
func findModules(root string) ([]module, error) {
	if data, err := os.ReadFile(filepath.Join(root, "go.work")); err == nil {
		uses, err := parseWorkUses(string(data))
		if err != nil {
			return nil, fmt.Errorf("go.work: %w", err)
		}
		var mods []module
		for _, u := range uses {
			dir := filepath.Join(root, filepath.FromSlash(u))
			if !within(root, dir) {
				return nil, fmt.Errorf("go.work: use %s leaves the workspace root", u)
			}
			m, err := readModule(dir, path.Join(u, "go.mod"))
			if err != nil {
				return nil, err
			}
			mods = append(mods, m)
		}
		if len(mods) == 0 {
			return nil, errors.New("go.work: uses no module")
		}
		return mods, nil
	}
	m, err := readModule(root, "go.mod")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errors.New("the workspace root has neither go.work nor go.mod: open a Go module as the workspace")
	}
	if err != nil {
		return nil, err
	}
	return []module{m}, nil
}

// readModule reads the module path from dir/go.mod; name is how messages
// call that file.
func readModule(dir, name string) (module, error) {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if errors.Is(err, fs.ErrNotExist) && name != "go.mod" {
		return module{}, fmt.Errorf("go.work: %s does not exist", name)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return module{}, err
	}
	if err != nil {
		return module{}, fmt.Errorf("%s: %s", name, pathErr(err))
	}
	p, err := parseModulePath(string(data))
	if err != nil {
		return module{}, fmt.Errorf("%s: %w", name, err)
	}
	return module{path: p, dir: dir}, nil
}

// parseModulePath returns the path of go.mod's module directive.
func parseModulePath(gomod string) (string, error) {
	sc := bufio.NewScanner(strings.NewReader(gomod))
	for sc.Scan() {
		line := stripComment(sc.Text())
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		p := strings.TrimSpace(rest)
		if uq, err := strconv.Unquote(p); err == nil {
			p = uq
		}
		if p == "" {
			break
		}
		return p, nil
	}
	return "", errors.New("no module directive")
}

// parseWorkUses returns the directories of go.work's use directives, in
// both the single-line and the block form.
func parseWorkUses(gowork string) ([]string, error) {
	var uses []string
	inBlock := false
	sc := bufio.NewScanner(strings.NewReader(gowork))
	for n := 1; sc.Scan(); n++ {
		line := stripComment(sc.Text())
		switch {
		case inBlock && line == ")":
			inBlock = false
		case inBlock && line != "":
			uses = append(uses, unquote(line))
		case line == "use (" || line == "use(":
			inBlock = true
		case strings.HasPrefix(line, "use ") || strings.HasPrefix(line, "use\t"):
			uses = append(uses, unquote(strings.TrimSpace(line[len("use"):])))
		}
	}
	if inBlock {
		return nil, errors.New("use block is not closed")
	}
	return uses, nil
}

func stripComment(line string) string {
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}

func unquote(s string) string {
	if uq, err := strconv.Unquote(s); err == nil {
		return uq
	}
	return s
}

// packageDirs returns the directories under modDir that may hold packages of
// the module: not testdata, vendor, hidden or "_" directories, and not
// nested modules.
func packageDirs(ctx context.Context, modDir string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(modDir, func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			if p == modDir {
				return err
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != modDir {
			name := d.Name()
			if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		dirs = append(dirs, p)
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("list packages: %s", pathErr(err))
	}
	return dirs, nil
}

// within reports whether p is root or below it.
func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

func relTo(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return filepath.Base(p)
	}
	return filepath.ToSlash(r)
}

// pathErr drops the absolute path from a *fs.PathError.
func pathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

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
	"sort"
	"strconv"
	"strings"
)

// The workspace is read through an *os.Root, by slash paths relative to it
// ("." is the root): nothing outside it is listed or opened, even when a
// file or directory is swapped for a symbolic link while the scan runs.

// module is one Go module of the workspace.
type module struct {
	path string // module path from go.mod
	dir  string // slash path in the workspace
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
func loadGraph(ctx context.Context, root *os.Root, tests bool, p progress) (*graph, error) {
	mods, err := findModules(root)
	if err != nil {
		return nil, err
	}
	g := &graph{modules: mods, pkgs: map[string]*pkg{}, importer: map[string][]string{}}
	var dirs []moduleDir
	for _, m := range mods {
		ds, err := packageDirs(ctx, root, m.dir)
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
		importPath := d.mod.path
		if rel := relSlash(d.mod.dir, d.dir); rel != "." {
			importPath = path.Join(d.mod.path, rel)
		}
		if pk := readPackage(fset, root, d.dir, importPath, tests, g); pk != nil {
			pk.dir = d.dir
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
func readPackage(fset *token.FileSet, root *os.Root, dir, importPath string, tests bool, g *graph) *pkg {
	entries, err := fs.ReadDir(root.FS(), dir)
	if err != nil {
		g.problems = append(g.problems, fmt.Sprintf("Skipped %s: %s.", dir, pathErr(err)))
		return nil
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
		file := path.Join(dir, name)
		src, why := readRegular(root, file)
		if why != "" {
			g.problems = append(g.problems, fmt.Sprintf("Skipped %s: it %s.", file, why))
			continue
		}
		f, err := parser.ParseFile(fset, file, src, parser.ImportsOnly)
		if err != nil {
			g.problems = append(g.problems, fmt.Sprintf("Skipped %s: it does not parse.", file))
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
		return nil
	}
	pk := &pkg{path: importPath}
	for p := range seen {
		pk.imports = append(pk.imports, p)
	}
	sort.Strings(pk.imports)
	return pk
}

// findModules returns the modules of the workspace: those go.work uses, or
// the one module whose go.mod is at root.
func findModules(root *os.Root) ([]module, error) {
	if data, why := readRegular(root, "go.work"); why == "" {
		uses, err := parseWorkUses(string(data))
		if err != nil {
			return nil, fmt.Errorf("go.work: %w", err)
		}
		var mods []module
		for _, u := range uses {
			dir := path.Clean(strings.ReplaceAll(u, `\`, "/"))
			if !fs.ValidPath(dir) {
				return nil, fmt.Errorf("go.work: use %s leaves the workspace root", u)
			}
			m, err := readModule(root, dir, path.Join(dir, "go.mod"))
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
	m, err := readModule(root, ".", "go.mod")
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
func readModule(root *os.Root, dir, name string) (module, error) {
	data, why := readRegular(root, path.Join(dir, "go.mod"))
	if why == whyMissing && name != "go.mod" {
		return module{}, fmt.Errorf("go.work: %s does not exist", name)
	}
	if why == whyMissing {
		return module{}, fs.ErrNotExist
	}
	if why != "" {
		return module{}, fmt.Errorf("%s: it %s", name, why)
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
func packageDirs(ctx context.Context, root *os.Root, modDir string) ([]string, error) {
	var dirs []string
	err := fs.WalkDir(root.FS(), modDir, func(p string, d fs.DirEntry, err error) error {
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
				return fs.SkipDir
			}
			if _, err := root.Lstat(path.Join(p, "go.mod")); err == nil {
				return fs.SkipDir
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

// relSlash returns the slash path p relative to its ancestor dir.
func relSlash(dir, p string) string {
	switch {
	case dir == ".":
		return p
	case p == dir:
		return "."
	}
	return strings.TrimPrefix(p, dir+"/")
}

// pathErr drops the absolute path from a *fs.PathError.
func pathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

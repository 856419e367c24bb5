package load

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/modkit/modkit/internal/freshness"
)

// GeneratedFile is the name of the Go file modgen writes.
const GeneratedFile = freshness.GeneratedFile

// Mode is what modgen needs from go/packages: syntax and types of the named
// packages, dependencies from export data.
const Mode = packages.NeedName | packages.NeedFiles | packages.NeedImports |
	packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

// Diag is a positioned problem; warnings do not fail a run.
type Diag struct {
	Pos     token.Position
	Msg     string
	Warning bool
}

// Format formats the diagnostic as file:line:col: message, with the file
// name relative to dir when that is shorter.
func (d Diag) Format(dir string) string {
	pos := d.Pos
	if pos.Filename != "" && dir != "" {
		if rel, err := filepath.Rel(dir, pos.Filename); err == nil && !strings.HasPrefix(rel, "..") {
			pos.Filename = rel
		}
	}
	prefix := ""
	if d.Warning {
		prefix = "warning: "
	}
	if !pos.IsValid() {
		if pos.Filename != "" {
			return pos.Filename + ": " + prefix + d.Msg
		}
		return prefix + d.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s%s", pos.Filename, pos.Line, pos.Column, prefix, d.Msg)
}

// SortDiags orders diagnostics by file and position.
func SortDiags(ds []Diag) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Pos, ds[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// Packages loads the packages matching patterns from dir. Errors in any
// loaded package are returned as diagnostics.
func Packages(dir string, patterns ...string) ([]*packages.Package, []Diag, error) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pkgs, diags, err := loadWith(dir, patterns, nil)
	if err != nil {
		return nil, nil, err
	}
	if len(diags) == 0 {
		if len(pkgs) == 0 {
			return nil, nil, fmt.Errorf("load %s: no packages", strings.Join(patterns, " "))
		}
		return pkgs, nil, nil
	}
	// A stale generated file may be what breaks the build: load again with
	// every generated file replaced by a stub. The first, plain load keeps
	// the common case as fast as a bare packages.Load.
	overlay, err := stubOverlay(dir, patterns)
	if err != nil || len(overlay) == 0 {
		return pkgs, diags, err
	}
	pkgs, diags, err = loadWith(dir, patterns, overlay)
	if err != nil {
		return nil, nil, err
	}
	if len(pkgs) == 0 {
		return nil, nil, fmt.Errorf("load %s: no packages", strings.Join(patterns, " "))
	}
	return pkgs, diags, nil
}

func loadWith(dir string, patterns []string, overlay map[string][]byte) ([]*packages.Package, []Diag, error) {
	cfg := &packages.Config{
		Mode:    Mode,
		Dir:     dir,
		Overlay: overlay,
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			return parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
		},
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("load %s: %v", strings.Join(patterns, " "), err)
	}
	var diags []Diag
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		// The go command reports a syntax error the parser reports too,
		// in other words: keep the parser's, with its position.
		parsed := slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind == packages.ParseError })
		for _, e := range p.Errors {
			if parsed && e.Kind == packages.ListError {
				continue
			}
			diags = append(diags, errorDiag(e))
		}
	})
	return pkgs, diags, nil
}

func errorDiag(e packages.Error) Diag {
	d := Diag{Msg: e.Msg}
	if e.Pos == "" || e.Pos == "-" {
		return d
	}
	// file:line:col or file:line
	parts := strings.Split(e.Pos, ":")
	d.Pos.Filename = e.Pos
	if n := len(parts); n >= 3 {
		var line, col int
		if _, err := fmt.Sscanf(parts[n-2]+" "+parts[n-1], "%d %d", &line, &col); err == nil {
			d.Pos = token.Position{Filename: strings.Join(parts[:n-2], ":"), Line: line, Column: col}
		}
	} else if n == 2 {
		var line int
		if _, err := fmt.Sscanf(parts[1], "%d", &line); err == nil {
			d.Pos = token.Position{Filename: parts[0], Line: line, Column: 1}
		}
	}
	return d
}

// stubOverlay finds the generated files of the packages patterns name
// and replaces each, for the build system and the type checker, by a stub:
// the old output must not influence, or break, the new one.
func stubOverlay(dir string, patterns []string) (map[string][]byte, error) {
	var files []string
	var others []string
	for _, p := range patterns {
		if !strings.HasPrefix(p, ".") && !filepath.IsAbs(p) {
			others = append(others, p)
			continue
		}
		if rest, ok := strings.CutSuffix(p, "..."); ok {
			base := rest
			if !filepath.IsAbs(base) {
				base = filepath.Join(dir, base)
			}
			if base == "" {
				base = "."
			}
			_ = filepath.WalkDir(base, func(path string, d os.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if d.IsDir() && path != base {
					name := d.Name()
					if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
						return filepath.SkipDir
					}
				}
				if !d.IsDir() && d.Name() == GeneratedFile {
					files = append(files, path)
				}
				return nil
			})
			continue
		}
		root := p
		if !filepath.IsAbs(root) {
			root = filepath.Join(dir, root)
		}
		files = append(files, filepath.Join(root, GeneratedFile))
	}
	if len(others) > 0 {
		// Import paths: ask the go command where the packages are.
		pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedFiles, Dir: dir}, others...)
		if err != nil {
			return nil, fmt.Errorf("load %s: %v", strings.Join(others, " "), err)
		}
		for _, pkg := range pkgs {
			for _, f := range append(pkg.GoFiles, pkg.IgnoredFiles...) {
				if filepath.Base(f) == GeneratedFile {
					files = append(files, f)
				}
			}
		}
	}
	overlay := map[string][]byte{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue // no generated file yet
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		overlay[abs] = stubGenerated(src)
	}
	return overlay, nil
}

// stubGenerated reduces a previously generated file to its package clause
// and, if present, a Modkit function returning nil, so that code calling
// Modkit still type-checks.
func stubGenerated(src []byte) []byte {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, GeneratedFile, src, parser.SkipObjectResolution)
	if err != nil {
		f, err = parser.ParseFile(fset, GeneratedFile, src, parser.PackageClauseOnly)
		if err != nil {
			return src
		}
		return []byte("package " + f.Name.Name + "\n")
	}
	var decls []ast.Decl
	var imports []*ast.ImportSpec
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.IMPORT {
				continue
			}
			var specs []ast.Spec
			for _, spec := range d.Specs {
				is := spec.(*ast.ImportSpec)
				if is.Path.Value == `"`+SDKPath+`"` {
					specs = append(specs, is)
					imports = append(imports, is)
				}
			}
			if len(specs) > 0 {
				d.Specs = specs
				decls = append(decls, d)
			}
		case *ast.FuncDecl:
			if d.Name.Name == "Modkit" && d.Recv == nil && len(imports) > 0 {
				d.Body.List = []ast.Stmt{&ast.ReturnStmt{Return: d.Body.Lbrace, Results: []ast.Expr{ast.NewIdent("nil")}}}
				decls = append(decls, d)
			}
		}
	}
	hasModkit := false
	for _, d := range decls {
		if _, ok := d.(*ast.FuncDecl); ok {
			hasModkit = true
		}
	}
	if !hasModkit {
		return []byte("package " + f.Name.Name + "\n")
	}
	f.Decls = decls
	f.Imports = imports
	f.Comments = nil
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return []byte("package " + f.Name.Name + "\n")
	}
	return buf.Bytes()
}

package load

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// GeneratedFile is the name of the Go file modgen writes.
const GeneratedFile = "zz_generated.modgen.go"

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
	cfg := &packages.Config{
		Mode: Mode,
		Dir:  dir,
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			if filepath.Base(filename) == GeneratedFile {
				// Only the package clause: the old output must not
				// influence, or break, the new one.
				return parser.ParseFile(fset, filename, src, parser.PackageClauseOnly)
			}
			return parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
		},
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("load %s: %v", strings.Join(patterns, " "), err)
	}
	var diags []Diag
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			diags = append(diags, errorDiag(e))
		}
	})
	if len(pkgs) == 0 {
		return nil, nil, fmt.Errorf("load %s: no packages", strings.Join(patterns, " "))
	}
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

package modreload

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/modkit/modkit/internal/modgen/build"
	"github.com/modkit/modkit/internal/modgen/load"
)

// Generate runs modgen on the mod in dir, writing the files that changed,
// and returns its problems as file:line:col: message, paths relative to
// dir.
func Generate(dir string) []string {
	pkgs, diags, err := load.Packages(dir, ".")
	if err != nil {
		return []string{err.Error()}
	}
	if ps := errorsOf(dir, diags); len(ps) > 0 {
		return ps
	}
	out, diags := build.Mod(pkgs[0])
	if ps := errorsOf(dir, diags); len(ps) > 0 || out == nil {
		if len(ps) == 0 {
			ps = []string{"modgen produced nothing"}
		}
		return ps
	}
	for _, f := range out.Files() {
		if old, err := os.ReadFile(f.Path); err == nil && bytes.Equal(old, f.Data) {
			continue
		}
		if err := os.WriteFile(f.Path, f.Data, 0o644); err != nil {
			return []string{err.Error()}
		}
	}
	return nil
}

// errorsOf returns the errors among diags. A positionless error, the go
// command's account of a package that does not type-check, is left out
// when the type checker's own errors say where.
func errorsOf(dir string, diags []load.Diag) []string {
	placed := false
	for _, d := range diags {
		placed = placed || !d.Warning && d.Pos.Filename != ""
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	var out []string
	for _, d := range diags {
		if !d.Warning && (d.Pos.Filename != "" || !placed) {
			out = append(out, d.Format(dir))
		}
	}
	return out
}

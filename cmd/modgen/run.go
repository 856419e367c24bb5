package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/types"
	"io"
	"os"
	"path/filepath"

	"github.com/modkit/modkit/internal/modgen/build"
	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/internal/modgen/schema"
)

const usage = `usage: modgen [-check] [PACKAGE ...]
       modgen schema PACKAGE TYPE
       modgen init [DIR]
`

// errUsage marks errors that exit 2.
var errUsage = errors.New("usage")

// run is modgen without the process: it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "schema" {
		return exit(stderr, runSchema(args[1:], stdout, stderr))
	}
	if len(args) > 0 && args[0] == "init" {
		return exit(stderr, runInit(args[1:], stdout))
	}
	fs := flag.NewFlagSet("modgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	check := fs.Bool("check", false, "write nothing; exit 1 naming the generated files that are stale")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	return exit(stderr, generate(fs.Args(), *check, stdout, stderr))
}

func exit(stderr io.Writer, err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "modgen: %v\n%s", err, usage)
		return 2
	case errors.Is(err, errReported):
		return 1
	}
	fmt.Fprintf(stderr, "modgen: %v\n", err)
	return 1
}

// errReported means the problems were already printed.
var errReported = errors.New("problems reported")

func cwd() string {
	dir, _ := os.Getwd()
	return dir
}

func printDiags(w io.Writer, diags []load.Diag) (failed bool) {
	dir := cwd()
	for _, d := range diags {
		fmt.Fprintln(w, d.Format(dir))
		if !d.Warning {
			failed = true
		}
	}
	return failed
}

func generate(patterns []string, check bool, stdout, stderr io.Writer) error {
	pkgs, diags, err := load.Packages("", patterns...)
	if err != nil {
		return err
	}
	if printDiags(stderr, diags) {
		return errReported
	}
	failed := false
	var stale []string
	for _, pkg := range pkgs {
		if len(pkgs) > 1 && !load.HasDefineMod(pkg) {
			continue // not a mod: patterns like ./... match helpers too
		}
		out, diags := build.Mod(pkg)
		if printDiags(stderr, diags) || out == nil {
			failed = true
			continue
		}
		for _, f := range out.Files() {
			old, err := os.ReadFile(f.Path)
			if err == nil && bytes.Equal(old, f.Data) {
				continue
			}
			if check {
				stale = append(stale, rel(f.Path))
				continue
			}
			if err := os.WriteFile(f.Path, f.Data, 0o644); err != nil {
				return fmt.Errorf("write %s: %v", rel(f.Path), err)
			}
		}
	}
	for _, s := range stale {
		fmt.Fprintf(stderr, "%s: stale: run go generate (modgen) to update it\n", s)
	}
	if failed || len(stale) > 0 {
		return errReported
	}
	return nil
}

func rel(path string) string {
	if r, err := filepath.Rel(cwd(), path); err == nil {
		return r
	}
	return path
}

func runSchema(args []string, stdout, stderr io.Writer) error {
	if len(args) != 2 {
		return fmt.Errorf("%w: schema takes a package and a type name", errUsage)
	}
	pkgs, diags, err := load.Packages("", args[0])
	if err != nil {
		return err
	}
	if printDiags(stderr, diags) {
		return errReported
	}
	if len(pkgs) != 1 {
		return fmt.Errorf("schema: %s matches %d packages, want one", args[0], len(pkgs))
	}
	pkg := pkgs[0]
	tn, ok := pkg.Types.Scope().Lookup(args[1]).(*types.TypeName)
	if !ok {
		return fmt.Errorf("schema: package %s has no type %s", pkg.PkgPath, args[1])
	}
	if named, ok := tn.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
		return fmt.Errorf("schema: %s is generic: give it a named instantiation (type X = %s[...])", args[1], args[1])
	}
	g := &schema.Generator{Fset: pkg.Fset, Docs: schema.NewDocs(pkg.Fset, pkg.Syntax), Mode: schema.Input, Module: load.ModulePath(pkg)}
	s := g.Root(tn.Type(), tn.Pos())
	var ds []load.Diag
	for _, e := range g.Errors() {
		ds = append(ds, load.Diag{Pos: e.Pos, Msg: e.Msg})
	}
	if printDiags(stderr, ds) {
		return errReported
	}
	_, err = stdout.Write(s.Indent())
	return err
}

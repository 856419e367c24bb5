package main

import (
	"io"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/modkit/modkit/internal/modgen/build"
	"github.com/modkit/modkit/internal/modgen/load"
)

const benchMod = "../../examples/research"

// BenchmarkModgen compares a full modgen -check run on an example mod with
// a bare packages.Load of the same package in the same mode, both with a
// warm build cache.
func BenchmarkModgen(b *testing.B) {
	b.Run("packages_load", func(b *testing.B) {
		for b.Loop() {
			pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: benchMod}, ".")
			if err != nil || packages.PrintErrors(pkgs) > 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("passes_only", func(b *testing.B) {
		pkgs, diags, err := load.Packages(benchMod, ".")
		if err != nil || len(diags) > 0 {
			b.Fatal(err, diags)
		}
		for b.Loop() {
			if out, diags := build.Mod(pkgs[0]); out == nil {
				b.Fatal(diags)
			}
		}
	})
	b.Run("modgen_check", func(b *testing.B) {
		for b.Loop() {
			if code := run([]string{"-check", benchMod}, io.Discard, io.Discard); code != 0 {
				b.Fatalf("modgen -check exited %d", code)
			}
		}
	})
}

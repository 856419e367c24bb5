package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/internal/modgen/schematest/schemagen"
)

func main() {
	schemas, src, err := schemagen.Generate(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for name, s := range schemas {
		if err := os.WriteFile(filepath.Join("testdata", name+".schema.json"), s.Indent(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
	if err := os.WriteFile(load.GeneratedFile, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

package build

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestImportsOTel(t *testing.T) {
	for src, want := range map[string]bool{
		`package m; import "go.opentelemetry.io/otel"`:            true,
		`package m; import t "go.opentelemetry.io/otel/trace"`:    true,
		`package m; import "go.opentelemetry.io/otelx"`:           false,
		`package m; import "github.com/modkit/modkit/sdk"`:        false,
		`package m; import _ "go.opentelemetry.io/contrib/otelx"`: false,
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "m.go", src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		if got := importsOTel(&packages.Package{Syntax: []*ast.File{f}}); got != want {
			t.Errorf("%s: importsOTel = %v, want %v", src, got, want)
		}
	}
}

package build

import (
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// importsOTel reports whether a file of pkg imports OpenTelemetry, so the
// generated file links the bridge that hands its spans to the host; a mod
// that does not links no OpenTelemetry.
func importsOTel(pkg *packages.Package) bool {
	for _, f := range pkg.Syntax {
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err == nil && (p == "go.opentelemetry.io/otel" || strings.HasPrefix(p, "go.opentelemetry.io/otel/")) {
				return true
			}
		}
	}
	return false
}

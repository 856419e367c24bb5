package load

import (
	"fmt"

	"golang.org/x/tools/go/packages"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// ModulePath returns the path of the module pkg belongs to, or "" when it
// is not in a module.
func ModulePath(pkg *packages.Package) string {
	if pkg.Module == nil {
		return ""
	}
	return pkg.Module.Path
}

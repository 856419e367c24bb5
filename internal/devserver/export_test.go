package devserver

import "github.com/modkit/modkit/internal/modreload"

// Generate runs modgen on the mod in dir, for tests that write a mod.
func Generate(dir string) []string { return modreload.Generate(dir) }

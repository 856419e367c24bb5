package devserver

// Generate runs modgen on the mod in dir, for tests that write a mod.
func Generate(dir string) []string { return generate(dir) }

package jsoncheck

// The contract between this package and the code modgen generates is
// versioned. Every generated file carries a guard that stops it from
// compiling against a jsoncheck it does not match:
//
//	const _ = jsoncheck.RegenerateWithGoGenerate(3 - jsoncheck.MinVersion)
//	const _ = jsoncheck.RegenerateWithGoGenerate(jsoncheck.Version - 3)
//
// A file older than MinVersion, or newer than Version, fails to compile
// with an error naming RegenerateWithGoGenerate: run go generate in the
// mod's package (with the modgen of the same modkit version) to fix it.
const (
	// Version is the contract generated files of this modkit version
	// are written against.
	Version = 3
	// MinVersion is the oldest contract this package still serves.
	MinVersion = 3
)

// RegenerateWithGoGenerate is the type of the version guard in generated
// files: a guard that overflows it means the file and this package
// disagree, and go generate must rewrite the file.
type RegenerateWithGoGenerate uint

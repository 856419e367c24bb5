package sdkrt

import (
	"runtime"
	"strings"
	"sync"
)

// defined holds the mods package-level variables declare, by id, the
// first of each: what a test binary that sdk/modtest re-executes to serve
// a mod finds it by, having run the same package initializations.
var defined struct {
	sync.Mutex
	mods map[string]any // id -> sdk.Mod
}

// Define notes def, the mod with the given id, when sdk.DefineMod, its
// caller, runs while a package initializes (a package-level variable or
// an init function); a DefineMod in a function run later is not noted.
func Define(id string, def any) {
	var pcs [3]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs[:])])
	frames.Next() // sdk.DefineMod
	caller, _ := frames.Next()
	if !inInit(caller.Function) {
		return
	}
	defined.Lock()
	defer defined.Unlock()
	if defined.mods == nil {
		defined.mods = map[string]any{}
	}
	if _, ok := defined.mods[id]; !ok {
		defined.mods[id] = def
	}
}

// Defined returns the mod with the given id a package-level declaration
// defined, as Define noted it.
func Defined(id string) (any, bool) {
	defined.Lock()
	defer defined.Unlock()
	def, ok := defined.mods[id]
	return def, ok
}

// inInit reports whether the function named fn (as runtime.Frame names
// it) is a package's initialization or a function literal within it:
// "example.com/mod.init", "example.com/mod.init.0", "….init.func1".
func inInit(fn string) bool {
	fn = fn[strings.LastIndex(fn, "/")+1:]
	_, rest, ok := strings.Cut(fn, ".")
	return ok && (rest == "init" || strings.HasPrefix(rest, "init."))
}

// Package modproxytest lays out, for tests, what installing a published mod
// needs and the network would give: a module proxy in a directory
// (GOPROXY=file://…) holding this checkout as a modkit module version and
// test mods that require it, and a checksum database on loopback that
// vouches for them (GOSUMDB=name+key+url). It can tamper with a zip, a
// go.mod or the database's tree.
//
// The modules modkit requires come from the module cache the tests run
// with, used as a second proxy: nothing is fetched from the network.
// [Proxy.SeedDeps] links them into a new module cache beforehand, so that
// a test's go command does not extract them all again.
package modproxytest

// T is what the package needs of a test; a *testing.T has it, and a
// testscript setup can adapt its environment to it.
type T interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Cleanup(func())
	TempDir() string
}

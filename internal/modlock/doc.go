// Package modlock pins the mods modhost installs from Go modules, in the
// mods.lock file, and fetches and checks them through the go command.
//
// # The lock file
//
// [Parse] reads mods.lock and [Format] writes it: one block per mod, sorted
// by the mod's package path, naming the module version it comes from, the
// h1: hashes of the module's zip and go.mod (the hashes go.sum and the
// checksum database hold), the SHA-256 of the mod's mod.manifest.json, and
// the permissions the manifest declares, one allow line each, so that a
// review's diff of the lock shows what an update lets a mod do:
//
//	mod example.com/weather
//		module   example.com/weather v1.2.0
//		zip      h1:…
//		go.mod   h1:…
//		manifest sha256:…
//		allow    connect api.weather.example:443
//		allow    env WEATHER_TOKEN
//
// [AllowLines] words them: "none" when the mod declares nothing beyond the
// least, else "write workspace", "connect HOST:PORT", "run PROGRAM", "read
// PATH" and "env NAME", each kind sorted, "*" for any, a value holding a
// space quoted as a Go string. A block without allow lines, written before
// modhost recorded them, still parses (its Entry.Permissions is nil): the
// manifest's hash alone pins the mod's permissions then, and the next
// modhost get or update that pins the mod writes the lines. A block whose
// allow lines disagree with the permissions its manifest declares is
// refused with a [*PermissionError] naming the mod and the line.
//
// # Fetching and checking
//
// [Download] fetches a module version with go mod download, so GOPROXY,
// GOSUMDB, GONOSUMDB, GOPRIVATE and GOFLAGS mean what they mean to the go
// command and the checksum database verifies what is fetched. [Resolve]
// finds each locked mod in the module cache, fetching it when missing,
// refuses one whose bytes differ from the lock with a [*MismatchError]
// naming both hashes (or whose allow lines differ from its manifest, with a
// [*PermissionError]), and returns a checked copy of its module, since the
// go command builds nothing inside the module cache; processes sharing
// Options.CopyDir may resolve at once, as each copy is made under a lock
// per module version and renamed into place. [Verify] fetches every
// locked mod again, into an empty module cache, and compares.
package modlock

// Package modbuild builds mods' binaries into the host's build cache and
// finds them there again.
//
// # The key
//
// A binary is filed under the mod's id and a key ([Key]) that hashes
// everything that changes what go build makes besides the sources: the go
// command's settings, cgo's, the module and workspace files and the serving
// main package. Key is a pure function of [KeyInputs]; [Configure] fills
// them from the go command and this process's environment.
//
// # Build tags
//
// On Linux every mod is built with the netgo and osusergo tags besides
// GOFLAGS's ([BuildFlags]): a mod without cgo of its own is then linked
// statically, which saves each mod process the C library's and the dynamic
// loader's pages. Everywhere, the grpcnotrace tag leaves out gRPC's
// tracing pages and the template packages they link, and the binary is
// linked without symbol table and DWARF (-ldflags=-s -w, unless GOFLAGS
// sets -ldflags): a smaller image to map and to checksum before each
// start.
//
// # The record
//
// Each build leaves a [Record] naming the package directories it read
// ([ListInputs]) and a [Digest] of their files as they were, so a later
// host knows whether the sources changed without building. A failed build
// is recorded too, unless [PassingCause] says the machine, not the
// sources, failed.
//
// # What a new process takes from the cache
//
// A host's first start of a mod would run go env for the key and read and
// hash every input file for the digest. The cache keeps both answers with a
// print of what they depend on, the files' identities (device, inode,
// size, modification and change times) among it: env/ holds go env's
// answer per module directory ([ConfigureIn], [GoEnvIn]), stamp/ the
// digest of each record's inputs ([DigestIn]), and fresh/ (package
// freshness) each mod directory's source hash. An answer is used only while
// its print is the print made now, and kept only when the print was the
// same before and after it was computed and every file is older than a
// timestamp's granularity could hide.
//
// # The cache's guard
//
// Writing to the cache is running code: [OpenCache] and [CheckPrivate]
// refuse directories and files others can write, and [LockFile] lets
// hosts sharing a cache build each mod once.
//
// # Trimming
//
// The cache forgets what goes unused, as the go command's build cache
// does. An entry is a mod and configuration: its record, its binaries
// ([BinaryName] carries the key) and its generated sources, all built,
// marked used ([Refresh]) and trimmed under the record's lock. A use marks
// an entry when it is [RefreshAfter] old; a running process's binary is
// marked hourly ([KeepUsed]). [Cache.AutoTrim], which a host runs after a
// build, trims once a day (trim.txt holds the last trim's time):
// [Cache.Trim] removes the entries, stray files of builds that died and
// module copies (mods/, see package modlock) unused for [TrimUnused],
// skipping those whose lock is held. [Usage] measures the cache by part.
//
// # Prebuilt caches
//
// modhost build makes a cache for a host with no go command (an image's):
// every mod built, and an [Index] ([IndexName]) naming each mod's record
// with what a host checks without the go command: the platform and
// protocol ([Index.Check]), the manifest's source hash and a digest of the
// mod's package files, wherever the package now is ([Prebuilt.Digest]).
// A host never builds, refreshes or trims a prebuilt cache.
package modbuild

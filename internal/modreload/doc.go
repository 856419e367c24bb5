// Package modreload is what a server that follows its mods' sources
// needs: [Watch] sees the mods' Go sources and other files (mods.lock)
// change, and [Generate] runs modgen on an edited mod, as go generate
// would, so that the host can load it afresh.
//
// # Watching
//
// Watch learns of changes from the operating system's file events
// (fsnotify), and also polls, for file systems that send none (network
// mounts, some containers' volumes). Either way a change is a change of
// the files' contents, compared by digest: a save that changes nothing is
// no change, and two edits within a file time's granularity are two.
package modreload

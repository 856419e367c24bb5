// Package quickread reads small files with few system calls. On Linux,
// os.ReadFile of a regular file makes ten: the open, two fcntl calls to
// make the descriptor non-blocking, the runtime poller's refusal of a
// regular file, two more to make it blocking again, an fstat for the size,
// the reads and the close. A host loading a hundred mods reads two small
// files in each, and those calls were most of the work; File makes four,
// or three when the caller knows the size.
package quickread

package sdk

// Any, as the one element of a Permissions list, allows everything of its
// kind: every TCP endpoint in Connect, every program in Run.
const Any = "*"

// Permissions are what a mod's process may do beyond the least it always
// gets. A mod that declares nothing reads its session's workspace and what
// the Go runtime needs from the system, writes only its private temporary
// directory (os.TempDir), and may not connect anywhere, run programs or
// signal other processes. On Linux the kernel enforces this (Landlock),
// from before the first line of the mod's code runs: a call outside it
// fails with a permission error, and the host's log names the permission
// it lacks. Every value must be a compile-time constant, like the rest of
// the mod's declaration.
type Permissions struct {
	// WriteWorkspace lets the mod create, change and remove files in the
	// session's workspace. Without it, the mod's tools are read-only.
	WriteWorkspace bool
	// Connect lists the TCP endpoints the mod may connect to, as
	// "host:port" ("db.internal:5432", "127.0.0.1:8080"), or Any. Linux
	// enforces the port; the host is for people to read.
	Connect []string
	// Run lists the programs the mod may run: a name looked up in PATH
	// ("go"), or an absolute path; or Any. A program runs confined as
	// the mod is.
	Run []string
	// Read lists further paths the mod may read, directories with all
	// they hold: absolute, or starting with one of $GOROOT, $GOMODCACHE,
	// $GOCACHE or $HOME, which the host resolves (the Go toolchain is
	// "$GOROOT").
	Read []string
	// Env lists the environment variables the mod receives from the
	// host's environment. It gets no others, besides those the Go runtime
	// reads (GOGC, GOMAXPROCS, GOMEMLIMIT, GODEBUG, GOTRACEBACK, TZ),
	// TMPDIR (its private directory), and PATH when it may run programs.
	Env []string
}

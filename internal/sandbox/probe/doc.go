// Package probe tries, one system call at a time, what the sandbox's
// seccomp filter decides on, for the tests of confinement: the sandbox's
// own, which run it in a confined copy of the test binary, and the host's,
// through its hostile test mod. Each attempt returns nil when the call went
// through, else an [os.SyscallError] naming the system call.
//
// It makes raw system calls with arguments chosen so that an unconfined
// process meets no permission error: success, or EINVAL, EBADF, EFAULT,
// ENOENT. A refusal by the filter is then EPERM or EACCES alone.
package probe

// Attempt is one system call made as a confined process might make it.
type Attempt struct {
	// Name says the call and its arguments: "socket(AF_INET, SOCK_RAW, IPPROTO_ICMP)".
	Name string
	// Try makes the call; nil when it went through.
	Try func() error
}

// Find returns the attempt named name among attempts.
func Find(attempts []Attempt, name string) (Attempt, bool) {
	for _, a := range attempts {
		if a.Name == name {
			return a, true
		}
	}
	return Attempt{}, false
}

package modbuild

import (
	"errors"
	"os/exec"
	"regexp"
	"strings"
)

// passingCauses are what go build prints when it failed for a reason
// outside the mod's sources, one that may pass: the machine, not the code.
// Such a failure is never recorded, so the next start builds again.
var passingCauses = []struct{ text, cause string }{
	{"no space left on device", "no space left on device"},
	{"disk quota exceeded", "the disk quota is exceeded"},
	{"input/output error", "an I/O error"},
	{"cannot allocate memory", "out of memory"},
	{"out of memory", "out of memory"},
	{"too many open files", "too many open files"},
	{"resource temporarily unavailable", "a resource was temporarily unavailable"},
	{"read-only file system", "a read-only file system"},
}

// killedBy matches the go command's report of a tool (the compiler, the
// linker) that a signal ended: "…/compile: signal: killed".
var killedBy = regexp.MustCompile(`(?m)(\S*): signal: ([a-z ]+)$`)

// PassingCause returns why a build that failed with err and printed output
// failed for a reason that may pass, in words, or "" when the failure is
// the mod's own (a compiler error, a missing module).
func PassingCause(err error, output string) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == -1 {
		return "the go command was killed (" + ee.String() + ")"
	}
	lower := strings.ToLower(output)
	for _, c := range passingCauses {
		if strings.Contains(lower, c.text) {
			return c.cause
		}
	}
	if m := killedBy.FindStringSubmatch(output); m != nil {
		tool := m[1][strings.LastIndexAny(m[1], `/\`)+1:]
		return tool + " was ended by a signal (" + m[2] + ")"
	}
	return ""
}

package manifest

import (
	"fmt"
	"net"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Any, as the one element of a Permissions list, allows everything of its
// kind.
const Any = "*"

// PathVars are the variables a Permissions.Read path may start with; the
// host resolves them ($GOROOT, $GOMODCACHE and $GOCACHE through the go
// command, $HOME from the environment).
var PathVars = []string{"$GOROOT", "$GOMODCACHE", "$GOCACHE", "$HOME"}

// Permissions are what a mod's process may do beyond the least it always
// gets: reading the session's workspace and what the Go runtime needs,
// writing its private temporary directory. See sdk.Permissions.
type Permissions struct {
	// WriteWorkspace lets the mod change files in the session's workspace.
	WriteWorkspace bool `json:"writeWorkspace,omitempty"`
	// Connect lists the TCP endpoints, "host:port", the mod may connect
	// to; ["*"] allows all.
	Connect []string `json:"connect,omitempty"`
	// Run lists the programs the mod may run, by name or absolute path;
	// ["*"] allows all.
	Run []string `json:"run,omitempty"`
	// Read lists further paths the mod may read: absolute, or starting
	// with one of PathVars.
	Read []string `json:"read,omitempty"`
	// Env lists the environment variables the mod receives.
	Env []string `json:"env,omitempty"`
}

// IsZero reports whether p grants nothing beyond the least.
func (p *Permissions) IsZero() bool {
	return p == nil || !p.WriteWorkspace && len(p.Connect) == 0 && len(p.Run) == 0 && len(p.Read) == 0 && len(p.Env) == 0
}

// Writes reports whether the mod may change anything outside its process:
// files in the workspace, or through the network or the programs it runs.
func (p *Permissions) Writes() bool {
	return p != nil && (p.WriteWorkspace || len(p.Connect) > 0 || len(p.Run) > 0)
}

// Lines describes p for people, one permission a line; one line saying so
// when p grants nothing beyond the least.
func (p *Permissions) Lines() []string {
	if p.IsZero() {
		return []string{"reads the workspace only; no writes, network or programs"}
	}
	var lines []string
	if p.WriteWorkspace {
		lines = append(lines, "writes the workspace")
	} else {
		lines = append(lines, "reads the workspace")
	}
	if len(p.Connect) > 0 {
		lines = append(lines, "connects to "+listOrAny(p.Connect, "any host"))
	}
	if len(p.Run) > 0 {
		lines = append(lines, "runs "+listOrAny(p.Run, "any program"))
	}
	if len(p.Read) > 0 {
		lines = append(lines, "reads "+strings.Join(p.Read, ", "))
	}
	if len(p.Env) > 0 {
		lines = append(lines, "receives "+strings.Join(p.Env, ", "))
	}
	return lines
}

// Summary is Lines on one line, joined by "; ".
func (p *Permissions) Summary() string { return strings.Join(p.Lines(), "; ") }

func listOrAny(list []string, anyText string) string {
	if len(list) == 1 && list[0] == Any {
		return anyText
	}
	return strings.Join(list, ", ")
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Problems returns what is wrong with p, each problem naming its field
// and index ("permissions.connect[0]"); nil when nothing is.
func (p *Permissions) Problems() []Problem {
	v := validator{}
	v.validatePermissions(p)
	return v.problems
}

// validatePermissions checks the declared permissions, naming each bad
// entry by its field and index.
func (v *validator) validatePermissions(p *Permissions) {
	if p == nil {
		return
	}
	v.anyAlone("permissions.connect", p.Connect)
	for i, c := range p.Connect {
		if c == Any {
			continue
		}
		if msg := checkEndpoint(c); msg != "" {
			v.add(fmt.Sprintf("permissions.connect[%d] %q", i, c), msg)
		}
	}
	v.anyAlone("permissions.run", p.Run)
	for i, r := range p.Run {
		entry := fmt.Sprintf("permissions.run[%d] %q", i, r)
		switch {
		case r == Any:
		case r == "":
			v.add(entry, "empty: name a program, like \"go\", or give its absolute path")
		case strings.ContainsRune(r, '/') && !path.IsAbs(r):
			v.add(entry, "a program is a name looked up in PATH or an absolute path")
		case path.IsAbs(r) && path.Clean(r) != r:
			v.add(entry, "not a clean path: write "+strconv.Quote(path.Clean(r)))
		}
	}
	for i, r := range p.Read {
		if msg := checkReadPath(r); msg != "" {
			v.add(fmt.Sprintf("permissions.read[%d] %q", i, r), msg)
		}
	}
	seen := map[string]int{}
	for i, e := range p.Env {
		entry := fmt.Sprintf("permissions.env[%d] %q", i, e)
		if !envName.MatchString(e) {
			v.add(entry, "not an environment variable name (letters, digits and '_', not starting with a digit)")
		}
		if j, dup := seen[e]; dup {
			v.add(entry, fmt.Sprintf("duplicate, first at permissions.env[%d]", j))
		} else {
			seen[e] = i
		}
	}
}

// anyAlone reports a list that holds Any beside other entries.
func (v *validator) anyAlone(field string, list []string) {
	for _, e := range list {
		if e == Any && len(list) > 1 {
			v.add(field, fmt.Sprintf("%q allows everything: it must be the only entry", Any))
			return
		}
	}
}

// checkEndpoint returns what is wrong with a "host:port" endpoint, or "".
func checkEndpoint(s string) string {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return "not host:port, like \"db.internal:5432\" or \"[::1]:8080\""
	}
	if host == "" {
		return "the host is empty: name one, like \"127.0.0.1:" + port + "\""
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Sprintf("port %q is not a number from 1 to 65535", port)
	}
	return ""
}

// checkReadPath returns what is wrong with a readable path, or "".
func checkReadPath(p string) string {
	rest := p
	if strings.HasPrefix(p, "$") {
		name, tail, _ := strings.Cut(p, "/")
		known := false
		for _, v := range PathVars {
			known = known || name == v
		}
		if !known {
			return fmt.Sprintf("%s is not one of %s", name, strings.Join(PathVars, ", "))
		}
		rest = "/" + tail
	} else if !path.IsAbs(p) {
		return "must be absolute, or start with one of " + strings.Join(PathVars, ", ")
	}
	if path.Clean(rest) != rest && rest != "/" || strings.Contains(rest, "/../") {
		return "not a clean path (no '.', '..', doubled or trailing '/')"
	}
	if rest == "/" && !strings.HasPrefix(p, "$") {
		return "the whole filesystem is not a path a mod may read; name the directories it needs"
	}
	return ""
}

// ResolveRead returns the absolute path a Permissions.Read entry names,
// with vars giving the values of PathVars (without the "$"); "" when a
// variable it starts with has no value.
func ResolveRead(p string, vars map[string]string) string {
	if !strings.HasPrefix(p, "$") {
		return p
	}
	name, tail, _ := strings.Cut(p, "/")
	base := vars[strings.TrimPrefix(name, "$")]
	if base == "" {
		return ""
	}
	if tail == "" {
		return base
	}
	return base + "/" + tail
}

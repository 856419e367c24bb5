package modserver

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/sdk"
)

// denial says what the confinement of a mod's process refused, when err is
// a system call's permission error: op for the operator's log, naming the
// target and the permission the mod lacks ("mod probe tried to connect to
// 127.0.0.1:5432; it declares no network access"), and model for the
// model, without the host's file paths. ok is false for any other error.
func denial(err error, id string, p *sdk.Permissions, workspace string) (op, model string, ok bool) {
	if !confined() {
		return "", "", false // the file's mode, not confinement, refused it
	}
	refused := "Permission denied: the " + id + " mod "
	const end = ". Retrying will not help; it needs a permission its author did not declare."
	if !errors.Is(err, fs.ErrPermission) {
		// A handler that formatted the error with %v lost its type.
		if text := err.Error(); strings.HasSuffix(text, "permission denied") || strings.HasSuffix(text, "operation not permitted") {
			return "mod " + id + " failed with a permission error, which its confinement may have caused (" + text + "); it declares: " + permissionsText(p),
				refused + "was refused something its declared permissions may not allow" + end, true
		}
		return "", "", false
	}
	var netErr *net.OpError
	var pathErr *fs.PathError
	var sysErr *os.SyscallError
	switch {
	case errors.As(err, &netErr) && netErr.Op == "dial":
		target := addrText(netErr)
		if netErr.Net == "unix" || netErr.Net == "unixgram" || netErr.Net == "unixpacket" {
			return "mod " + id + " tried to connect to the unix socket " + target + "; mods may reach no socket made outside their process",
				refused + "may not connect to sockets outside its own process" + end, true
		}
		lacks := "it declares no network access"
		if len(p.Connect) > 0 {
			lacks = "it may connect only to " + strings.Join(p.Connect, ", ")
		}
		return "mod " + id + " tried to connect to " + target + "; " + lacks,
			refused + "may not connect to " + target + " (" + lacks + ")" + end, true
	case errors.As(err, &netErr) && netErr.Op == "listen":
		return "mod " + id + " tried to listen on " + addrText(netErr) + "; mods may not accept connections",
			refused + "may not accept network connections" + end, true
	case errors.As(err, &pathErr) && (pathErr.Op == "fork/exec" || pathErr.Op == "exec"):
		name := filepath.Base(pathErr.Path)
		lacks := "it declares no programs it may run"
		if len(p.Run) > 0 {
			lacks = "it may run only " + strings.Join(p.Run, ", ")
		}
		return "mod " + id + " tried to run " + pathErr.Path + "; " + lacks,
			refused + "may not run " + name + " (" + lacks + ")" + end, true
	case errors.As(err, &pathErr):
		if workspace != "" && (!filepath.IsAbs(pathErr.Path) || within(pathErr.Path, workspace)) && !leadsOut(pathErr.Path, workspace) {
			if p.WriteWorkspace {
				return "", "", false // the file's own mode, not confinement
			}
			return "mod " + id + " tried to " + pathErr.Op + " " + pathErr.Path + " in the workspace; it declares no write access to the workspace",
				refused + "may not change files in the workspace (it declares no write access)" + end, true
		}
		lacks := "it may use only the workspace, its temporary directory and the paths it declares readable"
		if len(p.Read) > 0 {
			lacks += " (" + strings.Join(p.Read, ", ") + ")"
		}
		return "mod " + id + " tried to " + pathErr.Op + " " + pathErr.Path + "; " + lacks,
			refused + "may not use files outside the workspace except the paths it declares" + end, true
	case errors.As(err, &sysErr) && signals[sysErr.Syscall] && errors.Is(err, syscall.EPERM):
		return "mod " + id + " tried to signal another process; mods may not",
			refused + "may not signal other processes" + end, true
	case errors.As(err, &sysErr) && (sysErr.Syscall == "socket" || sysErr.Syscall == "socketpair"):
		return "mod " + id + " tried to open a socket of a kind it may not (" + sysErr.Syscall + "); it declares: " + permissionsText(p),
			refused + "may not open a socket of this kind" + end, true
	case errors.As(err, &sysErr):
		return "mod " + id + " tried the system call " + sysErr.Syscall + ", which confinement refuses",
			refused + "may not use the system call " + sysErr.Syscall + end, true
	}
	return "mod " + id + " was refused an operation, which its confinement may have caused (" + err.Error() + "); it declares: " + permissionsText(p),
		refused + "was refused something its declared permissions may not allow" + end, true
}

// signals are the system calls that send a signal.
var signals = map[string]bool{"kill": true, "tkill": true, "tgkill": true, "pidfd_send_signal": true}

// confined reports whether the process is confined, as a host starts
// mods; a mod served in a test's process is not.
var confined = sync.OnceValue(sandbox.Confined)

// addrText is the address a dial or listen was for.
func addrText(e *net.OpError) string {
	if e.Addr != nil {
		return e.Addr.String()
	}
	return "an address"
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// leadsOut reports whether path, in the workspace, leads outside it
// through a symbolic link: reading it is what was refused.
func leadsOut(path, workspace string) bool {
	if !filepath.IsAbs(path) {
		path = filepath.Join(workspace, path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	ws, err := filepath.EvalSymlinks(workspace)
	if err != nil {
		ws = workspace
	}
	return !within(real, ws)
}

// permissionsText lists what p allows, for the operator.
func permissionsText(p *sdk.Permissions) string {
	var parts []string
	if p.WriteWorkspace {
		parts = append(parts, "write the workspace")
	}
	for _, l := range []struct {
		what string
		list []string
	}{{"connect to", p.Connect}, {"run", p.Run}, {"read", p.Read}} {
		if len(l.list) > 0 {
			parts = append(parts, l.what+" "+strings.Join(l.list, ", "))
		}
	}
	if len(parts) == 0 {
		return "nothing beyond reading the workspace"
	}
	return strings.Join(parts, "; ")
}

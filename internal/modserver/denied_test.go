package modserver

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/modkit/modkit/sdk"
)

func TestDenial(t *testing.T) {
	was := confined
	confined = func() bool { return true }
	defer func() { confined = was }()
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 5432}
	ws := t.TempDir()
	for _, tt := range []struct {
		name      string
		err       error
		perms     sdk.Permissions
		op, model string
	}{
		{"connect", fmt.Errorf("query: %w", &net.OpError{Op: "dial", Net: "tcp", Addr: addr, Err: os.NewSyscallError("connect", syscall.EACCES)}), sdk.Permissions{},
			"mod probe tried to connect to 127.0.0.1:5432; it declares no network access",
			"Permission denied: the probe mod may not connect to 127.0.0.1:5432 (it declares no network access). Retrying will not help; it needs a permission its author did not declare."},
		{"connect elsewhere", &net.OpError{Op: "dial", Net: "tcp", Addr: addr, Err: syscall.EACCES}, sdk.Permissions{Connect: []string{"db:80"}},
			"mod probe tried to connect to 127.0.0.1:5432; it may connect only to db:80", ""},
		{"run", &fs.PathError{Op: "fork/exec", Path: "/bin/true", Err: syscall.EACCES}, sdk.Permissions{},
			"mod probe tried to run /bin/true; it declares no programs it may run",
			"Permission denied: the probe mod may not run true (it declares no programs it may run). Retrying will not help; it needs a permission its author did not declare."},
		{"read outside", &fs.PathError{Op: "open", Path: "/etc/shadow", Err: syscall.EACCES}, sdk.Permissions{Read: []string{"$GOROOT"}},
			"mod probe tried to open /etc/shadow; it may use only the workspace, its temporary directory and the paths it declares readable ($GOROOT)", ""},
		{"write workspace", &fs.PathError{Op: "mkdirat", Path: "notes", Err: syscall.EACCES}, sdk.Permissions{},
			"mod probe tried to mkdirat notes in the workspace; it declares no write access to the workspace",
			"Permission denied: the probe mod may not change files in the workspace (it declares no write access). Retrying will not help; it needs a permission its author did not declare."},
		{"signal", os.NewSyscallError("kill", syscall.EPERM), sdk.Permissions{},
			"mod probe tried to signal another process; mods may not", ""},
		{"thread signal", os.NewSyscallError("tkill", syscall.EPERM), sdk.Permissions{},
			"mod probe tried to signal another process; mods may not", ""},
		{"socket", os.NewSyscallError("socket", syscall.EACCES), sdk.Permissions{},
			"mod probe tried to open a socket of a kind it may not (socket); it declares: nothing beyond reading the workspace",
			"Permission denied: the probe mod may not open a socket of this kind. Retrying will not help; it needs a permission its author did not declare."},
		{"system call", os.NewSyscallError("ptrace", syscall.EPERM), sdk.Permissions{},
			"mod probe tried the system call ptrace, which confinement refuses",
			"Permission denied: the probe mod may not use the system call ptrace. Retrying will not help; it needs a permission its author did not declare."},
		{"bare errno", fmt.Errorf("setup: %w", syscall.EPERM), sdk.Permissions{},
			"mod probe was refused an operation, which its confinement may have caused (setup: operation not permitted); it declares: nothing beyond reading the workspace",
			"Permission denied: the probe mod was refused something its declared permissions may not allow. Retrying will not help; it needs a permission its author did not declare."},
		{"lost type", errors.New("save: open x: permission denied"), sdk.Permissions{},
			"mod probe failed with a permission error, which its confinement may have caused (save: open x: permission denied); it declares: nothing beyond reading the workspace", ""},
	} {
		op, model, ok := denial(tt.err, "probe", &tt.perms, ws)
		if !ok || op != tt.op || tt.model != "" && model != tt.model {
			t.Errorf("%s: got %v %q %q, want %q %q", tt.name, ok, op, model, tt.op, tt.model)
		}
	}
	if _, _, ok := denial(errors.New("no such file"), "probe", &sdk.Permissions{}, ws); ok {
		t.Error("another error: got a denial")
	}
	confined = func() bool { return false }
	if _, _, ok := denial(&fs.PathError{Op: "open", Path: "/x", Err: syscall.EACCES}, "probe", &sdk.Permissions{}, ws); ok {
		t.Error("unconfined process: got a denial, want the error as it is")
	}
}

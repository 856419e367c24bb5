package host

import (
	"debug/elf"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/go-plugin"

	"github.com/modkit/modkit/internal/modbuild"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/manifest"
)

// ErrUnconfined: the host cannot confine mods on this machine and its
// operator did not allow unconfined mods (Options.AllowUnconfined).
var ErrUnconfined = errors.New("mods cannot be confined here")

// Unconfined says why the host cannot confine its mods' processes to
// their declared permissions on this machine; nil when it confines them.
// Such a host starts mods only with Options.AllowUnconfined.
func (h *Host) Unconfined() error { return h.sandboxErr }

// readOnly returns the annotations of a tool that can change nothing: it
// runs only in its mod, which the host confines and which declares no
// permission to write the workspace, connect or run programs. nil for any
// other tool, whose annotations stand as declared.
func (h *Host) readOnly(t *tool) *manifest.Annotations {
	if !h.confining() || t.man.Runs != manifest.RunsInMod || t.mod.man.Permissions.Writes() {
		return nil
	}
	return &manifest.Annotations{ReadOnly: true}
}

// confining reports whether the host confines its mods' processes.
func (h *Host) confining() bool { return h.sandboxErr == nil }

// checkSandbox learns, once per host, whether the kernel can confine mods,
// and logs it when mods will run unconfined.
func (h *Host) checkSandbox() {
	h.sandboxErr = sandbox.Check()
	if h.sandboxErr != nil && h.opts.AllowUnconfined {
		h.opts.Logger.Warn("mods run unconfined, with every right of the user: "+h.sandboxErr.Error(), "allowed", "Options.AllowUnconfined")
	}
}

// unconfinedError is why no mod may start, or nil.
func (h *Host) unconfinedError(id string) error {
	if h.sandboxErr == nil || h.opts.AllowUnconfined {
		return nil
	}
	return fmt.Errorf("start mod %s: %w: %v; run with --allow-unconfined (Options.AllowUnconfined) to run mods with every right of the user", id, ErrUnconfined, h.sandboxErr)
}

// System paths a confined mod reads: what the Go runtime and time zones
// need, always; name resolution and certificates with network access;
// the dynamic loader's libraries for a dynamically linked binary and for
// programs.
var (
	runtimeReads = []string{"/etc/localtime", "/etc/timezone", "/usr/share/zoneinfo",
		"/sys/fs/cgroup", "/sys/kernel/mm/transparent_hugepage", "/sys/devices/system/cpu",
		"/dev/urandom", "/dev/random"}
	networkReads = []string{"/etc/resolv.conf", "/etc/hosts", "/etc/host.conf", "/etc/nsswitch.conf",
		"/etc/gai.conf", "/etc/services", "/etc/protocols", "/etc/ssl", "/etc/pki",
		"/etc/ca-certificates", "/usr/share/ca-certificates", "/usr/local/share/ca-certificates"}
	loaderReads = []string{"/lib", "/lib64", "/lib32", "/usr/lib", "/usr/lib64", "/usr/lib32",
		"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d"}
)

// policy is what a process of m running bin for workspace may do: its
// declared permissions, and the least every mod gets: reading workspace,
// writing its private directory dir.
func (m *mod) policy(bin, dir, workspace string) *sandbox.Policy {
	perms := m.man.Permissions
	if perms == nil {
		perms = &manifest.Permissions{}
	}
	p := &sandbox.Policy{
		Read:  append([]string(nil), runtimeReads...),
		Write: []string{dir, os.DevNull},
		Exec:  []string{bin},
	}
	if workspace != "" {
		if perms.WriteWorkspace {
			p.Write = append(p.Write, workspace)
		} else {
			p.Read = append(p.Read, workspace)
		}
	}
	if dynamic(bin) || len(perms.Run) > 0 {
		p.ReadExec = append(p.ReadExec, loaderReads...)
	}
	if len(perms.Connect) > 0 {
		p.Read = append(p.Read, networkReads...)
	}
	for _, c := range perms.Connect {
		if c == manifest.Any {
			p.ConnectAny = true
			continue
		}
		_, port, _ := net.SplitHostPort(c)
		if n, err := strconv.ParseUint(port, 10, 16); err == nil {
			p.ConnectPorts = append(p.ConnectPorts, uint16(n))
		}
	}
	for _, r := range perms.Run {
		if r == manifest.Any {
			p.ExecAny = true
			continue
		}
		path, err := exec.LookPath(r)
		if err != nil {
			m.logger().Warn("a program the mod may run is not found", "program", r, "error", err.Error())
			continue
		}
		p.Exec = append(p.Exec, path)
	}
	if len(perms.Read) > 0 {
		vars := m.pathVars()
		for _, r := range perms.Read {
			if path := manifest.ResolveRead(r, vars); path != "" {
				p.Read = append(p.Read, filepath.FromSlash(path))
			} else {
				m.logger().Warn("a path the mod may read names a variable with no value", "path", r)
			}
		}
	}
	return p
}

// pathVars are the values of manifest.PathVars for m.
func (m *mod) pathVars() map[string]string {
	vars := map[string]string{}
	// A host running from a prebuilt cache runs no go command: the go
	// settings have no value there.
	if idx, _ := m.h.prebuilt(); idx == nil {
		if env, err := modbuild.GoEnv(m.dir); err == nil {
			for _, k := range []string{"GOROOT", "GOMODCACHE", "GOCACHE"} {
				vars[k] = env[k]
			}
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		vars["HOME"] = home
	}
	return vars
}

// dynamics caches dynamic by binary: a cached binary's name holds its
// checksum, so its answer never changes.
var dynamics sync.Map // path -> bool

// dynamic reports whether bin needs the dynamic loader.
func dynamic(bin string) bool {
	if d, ok := dynamics.Load(bin); ok {
		return d.(bool)
	}
	d := readsInterp(bin)
	dynamics.Store(bin, d)
	return d
}

// readsInterp reports whether the ELF file bin names an interpreter.
func readsInterp(bin string) bool {
	f, err := elf.Open(bin)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, prog := range f.Progs {
		if prog.Type == elf.PT_INTERP {
			return true
		}
	}
	return false
}

// runtimeEnv are the variables the Go runtime reads, which every mod
// receives from the host's environment.
var runtimeEnv = []string{"GOGC", "GOMAXPROCS", "GOMEMLIMIT", "GODEBUG", "GOTRACEBACK", "TZ"}

// modEnv is the environment of a mod process: of spec (the host's
// environment and go-plugin's variables), go-plugin's, the runtime's and
// those the mod declares, PATH when it runs programs; then TMPDIR, its
// private directory.
func (m *mod) modEnv(spec []string, dir string) []string {
	keep := map[string]bool{protocol.Handshake.MagicCookieKey: true}
	for _, k := range runtimeEnv {
		keep[k] = true
	}
	if perms := m.man.Permissions; perms != nil {
		for _, k := range perms.Env {
			keep[k] = true
		}
		if len(perms.Run) > 0 {
			keep["PATH"] = true
		}
	}
	var env []string
	for _, kv := range spec {
		k, _, _ := strings.Cut(kv, "=")
		if runtime.GOOS == "windows" {
			k = strings.ToUpper(k) // Path is PATH
		}
		if keep[k] || strings.HasPrefix(k, "PLUGIN_") {
			env = append(env, kv)
		}
	}
	if os.Getenv("GOMAXPROCS") == "" {
		// A confined mod cannot read its cgroup's CPU limit from /proc:
		// it gets the host's.
		env = append(env, "GOMAXPROCS="+strconv.Itoa(runtime.GOMAXPROCS(0)))
	}
	return append(env, "TMPDIR="+dir, plugin.EnvUnixSocketDir+"="+dir)
}

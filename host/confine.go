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

// ErrUnconfined: this machine does not keep every promise of confinement,
// and the mod may not run with less: the host requires full confinement
// (Options.RequireConfinement), or the mod was installed from a published
// module (Options.Installed) and the operator did not allow it
// (Options.AllowUnconfined).
var ErrUnconfined = errors.New("mods cannot be fully confined here")

// Unconfined names the promises of confinement this machine does not
// enforce (a mod's declared limits it cannot hold) and why: the Landlock
// the kernel offers, a seccomp filter it refuses, or neither on this OS;
// nil when it enforces them all.
// Mods from the user's own sources run regardless, with what it enforces;
// see Options.RequireConfinement and Options.AllowUnconfined.
func (h *Host) Unconfined() error { return h.gaps }

// readOnly returns the annotations of a tool that can change nothing: it
// runs only in its mod, which the host confines fully and which declares
// no permission to write the workspace, connect or run programs. nil for
// any other tool, whose annotations stand as declared.
func (h *Host) readOnly(t *tool) *manifest.Annotations {
	if h.gaps != nil || t.man.Runs != manifest.RunsInMod || t.mod.man.Permissions.Writes() {
		return nil
	}
	return &manifest.Annotations{ReadOnly: true}
}

// confining reports whether the host confines its mods' processes: with
// Landlock at some ABI, or the seccomp filter alone, and no capability.
func (h *Host) confining() bool { return h.enforced.Confines() }

// checkSandbox learns, once per host, what this machine enforces, and
// logs what it does not when mods will run anyway.
func (h *Host) checkSandbox() error {
	e, err := sandbox.Current()
	if err != nil {
		return fmt.Errorf("host: %w", err)
	}
	h.enforced, h.gaps = e, e.Gaps()
	h.installed = map[string]bool{}
	for _, dir := range h.opts.Installed {
		if abs, err := filepath.Abs(dir); err == nil {
			h.installed[abs] = true
		}
	}
	switch {
	case h.gaps == nil || h.opts.RequireConfinement:
	case h.opts.AllowUnconfined:
		h.opts.Logger.Warn("mods run with the confinement this machine offers; " + h.gaps.Error() + "; installed mods too (Options.AllowUnconfined)")
	default:
		h.opts.Logger.Warn("mods from your own sources run with the confinement this machine offers; " + h.gaps.Error() +
			"; installed mods need --allow-unconfined (Options.AllowUnconfined), and --require-confinement (Options.RequireConfinement) refuses every mod instead")
	}
	return nil
}

// unconfinedError is why m may not start on this machine, or nil.
func (h *Host) unconfinedError(m *mod) error {
	switch {
	case h.gaps == nil:
		return nil
	case h.opts.RequireConfinement:
		return fmt.Errorf("start mod %s: %w: %v; the host requires full confinement (--require-confinement, Options.RequireConfinement)", m.man.ID, ErrUnconfined, h.gaps)
	case m.installed && !h.opts.AllowUnconfined:
		return fmt.Errorf("start mod %s: %w: %v; a mod installed from mods.lock starts only fully confined: run with --allow-unconfined (Options.AllowUnconfined) to run it with what this machine enforces", m.man.ID, ErrUnconfined, h.gaps)
	}
	return nil
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
		p.Connect = append(p.Connect, c)
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

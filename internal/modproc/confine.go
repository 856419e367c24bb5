package modproc

import (
	"debug/elf"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/go-plugin"

	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/manifest"
)

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

// Policy is what a process of a mod with permissions perms (nil: none),
// running bin for workspace, may do: its declared permissions, and the
// least every mod gets: reading workspace, writing its private directory
// dir. vars gives the values of manifest.PathVars, asked only when the mod
// declares paths it reads; warn hears of a declared program or path that
// cannot be resolved.
func Policy(perms *manifest.Permissions, bin, dir, workspace string, vars func() map[string]string, warn func(msg string, args ...any)) *sandbox.Policy {
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
			warn("a program the mod may run is not found", "program", r, "error", err.Error())
			continue
		}
		p.Exec = append(p.Exec, path)
	}
	if len(perms.Read) > 0 {
		vars := vars()
		for _, r := range perms.Read {
			if path := manifest.ResolveRead(r, vars); path != "" {
				p.Read = append(p.Read, filepath.FromSlash(path))
			} else {
				warn("a path the mod may read names a variable with no value", "path", r)
			}
		}
	}
	return p
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

// Env is the environment of a process of a mod with permissions perms
// (nil: none): of spec (the host's environment and go-plugin's variables),
// go-plugin's, the runtime's and those the mod declares, PATH when it runs
// programs; then TMPDIR, its private directory dir.
func Env(perms *manifest.Permissions, spec []string, dir string) []string {
	keep := map[string]bool{protocol.MagicCookieKey: true}
	for _, k := range runtimeEnv {
		keep[k] = true
	}
	if perms != nil {
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

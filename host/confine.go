package host

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/modkit/modkit/internal/modbuild"
	"github.com/modkit/modkit/internal/modproc"
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

// policy is what a process of m running bin for workspace may do: its
// declared permissions, and the least every mod gets: reading workspace,
// writing its private directory dir.
func (m *mod) policy(bin, dir, workspace string) *sandbox.Policy {
	return modproc.Policy(m.man.Permissions, bin, dir, workspace, m.pathVars, m.logger().Warn)
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

// modEnv is the environment of a mod process: of spec (the host's
// environment and go-plugin's variables), go-plugin's, the runtime's and
// those the mod declares, PATH when it runs programs; then TMPDIR, its
// private directory.
func (m *mod) modEnv(spec []string, dir string) []string {
	return modproc.Env(m.man.Permissions, spec, dir)
}

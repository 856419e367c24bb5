package host

import (
	"debug/buildinfo"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"

	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/internal/modbuild"
)

// ErrUnavailable: the mod cannot run (it does not load, its generated
// files are stale, it does not build, or the build cache is unusable).
// Errors of type *ModError match it with errors.Is.
var ErrUnavailable = errors.New("mod unavailable")

// ModError says why a mod cannot run, in two voices: Err, in full, for the
// person running the host (directories, compiler output, the fix), and
// Reason, one short phrase a model may read.
type ModError struct {
	// Dir is the mod directory as given to Load.
	Dir string
	// Mod is the mod's id; empty when its manifest could not be read.
	Mod string
	// Reason is the short reason: "it does not build".
	Reason string
	// Err is the full explanation, naming the directory and the fix.
	Err error
}

func (e *ModError) Error() string { return e.Err.Error() }

func (e *ModError) Unwrap() error { return e.Err }

// Is makes a *ModError match ErrUnavailable.
func (e *ModError) Is(target error) bool { return target == ErrUnavailable }

// ModelText is what a model reads about the mod:
// "mod tasks is unavailable: it does not build".
func (e *ModError) ModelText() string {
	if e.Mod == "" {
		return "a mod is unavailable: " + e.Reason
	}
	return "mod " + e.Mod + " is unavailable: " + e.Reason
}

// availability is what the host knows about whether a loaded mod can run.
type availability struct {
	// given is the mod directory as given to Load.
	given string
	// stale is set at load when the generated files are out of date.
	stale *ModError

	errMu sync.Mutex
	// last is why the mod last failed to start, until it starts.
	last *ModError
	// reported is the digest of the last build failure written to
	// Options.Progress, so each is shown once.
	reported string
	// shown is the last other reason not to start written to
	// Options.Progress, so each is shown once until the mod starts.
	shown string
}

// unavailable records and returns a ModError for the mod.
func (m *mod) unavailable(reason string, err error) *ModError {
	e := &ModError{Dir: m.given, Mod: m.man.ID, Reason: reason, Err: err}
	m.errMu.Lock()
	m.last = e
	m.errMu.Unlock()
	return e
}

// started clears the mod's last start failure.
func (m *mod) started() {
	m.errMu.Lock()
	m.last = nil
	m.shown = ""
	m.errMu.Unlock()
}

// show tells the person running the host why the mod cannot start, once
// per reason until it starts: a caller may pass on only the short reason
// (a model reads "the host's build cache is unusable"), while the operator
// needs the path, the problem and the fix. Stale generated files were
// shown at load, and build failures are shown by reportFailure and
// passingFailure.
func (m *mod) show(err error) {
	var e *ModError
	if !errors.As(err, &e) || e == m.stale || e.Reason == reasonBuild || strings.HasPrefix(e.Reason, "its build failed") {
		return
	}
	m.errMu.Lock()
	if m.shown == e.Err.Error() {
		m.errMu.Unlock()
		return
	}
	m.shown = e.Err.Error()
	m.errMu.Unlock()
	m.h.report(e)
}

// Unavailable returns why mods cannot run: first the directories that did
// not load, then, in load order, the mods whose generated files are stale
// and the mods whose last start failed for a reason that lasts (a build
// failure, an unusable cache). A mod that starts later leaves the list.
func (h *Host) Unavailable() []*ModError {
	out := append([]*ModError(nil), h.loadErrs...)
	for _, m := range h.mods {
		if m.stale != nil {
			out = append(out, m.stale)
			continue
		}
		m.errMu.Lock()
		if m.last != nil {
			out = append(out, m.last)
		}
		m.errMu.Unlock()
	}
	return out
}

// errBadBinary: a cached binary failed an identity check at start.
var errBadBinary = errors.New("the cached binary failed an identity check")

// isBuildOfMod reports whether the executable bin is a Go build of the
// mod's main package, as the host builds it.
func (m *mod) isBuildOfMod(bin string) bool {
	bi, err := buildinfo.ReadFile(bin)
	return err == nil && bi.Path == m.man.GoPackage+"/zz_modmain"
}

// notStarted is the error of a process that did not start as a mod: it
// could not be run, exited before the handshake, or did not complete it.
type notStarted struct{ err error }

func (e *notStarted) Error() string { return e.err.Error() }
func (e *notStarted) Unwrap() error { return e.err }

// startFresh checks the mod's generated files against its sources, gets
// its binary and starts it. A binary that fails an identity check (its
// checksum, or the mod it serves) is evicted and rebuilt, once; so is one
// found in the cache that does not start as a mod and is no build of the
// mod's main package (planted there, with a record forged to match it, or
// broken since). A build of the mod that does not start is the mod's own
// failure, rebuilt by no host.
func (m *mod) startFresh(workspace string) (_ *proc, err error) {
	defer func() { m.show(err) }()
	if m.stale != nil {
		return nil, m.stale
	}
	if err := freshness.CheckIn(m.h.stampRoot(), m.given, m.man.ID, m.man.SourceHash); err != nil {
		return nil, m.unavailable("its generated files are out of date", err)
	}
	for attempt := 0; ; attempt++ {
		b, err := m.binary()
		if err != nil {
			return nil, err
		}
		if m.ctx.Err() != nil {
			return nil, ErrClosed
		}
		p, err := m.start(b, workspace)
		if errors.Is(err, errBadBinary) && b.prebuilt {
			return nil, m.badPrebuilt(err)
		}
		if errors.Is(err, errBadBinary) {
			b.evict()
			m.logger().Warn("evicted a cached binary that failed an identity check", "error", err)
			if attempt == 0 {
				fmt.Fprintf(m.h.opts.Progress, "%v; evicted it, rebuilding\n", err)
				continue
			}
			return nil, m.unavailable("it does not start", err)
		}
		var ns *notStarted
		if errors.As(err, &ns) && !b.fresh && !b.prebuilt && attempt == 0 && !m.isBuildOfMod(b.path) {
			if _, serr := os.Stat(b.path); errors.Is(serr, fs.ErrNotExist) {
				continue // removed since it was found (by hand, or a trim of an older host): build again
			}
			b.evict()
			m.logger().Warn("evicted a cached binary that did not start as a mod", "error", err)
			fmt.Fprintf(m.h.opts.Progress, "%v; the cached binary did not start as a mod; evicted it, rebuilding\n", err)
			continue
		}
		if err != nil {
			if _, serr := os.Stat(b.path); attempt == 0 && errors.Is(serr, fs.ErrNotExist) {
				continue // removed since it was found (by hand, or a trim of an older host): build again
			}
			return nil, err
		}
		if exited := p.run.Exited(); exited != nil && !b.prebuilt {
			go modbuild.KeepUsed(exited, b.path, b.record)
		}
		m.started()
		m.tele.started(m.man.ID)
		return p, nil
	}
}

// failedWith is the ending of a call that err failed. When a mod is
// unavailable, the model reads only that, while Error keeps the full
// explanation.
func failedWith(err error) callflow.Ending {
	e := callflow.Failed(err.Error(), nil)
	var me *ModError
	if errors.As(err, &me) {
		e.Text = "Tool failed: " + me.ModelText()
	}
	return e
}

// CheckBuilds finds the mods whose build from their current inputs is
// recorded in the cache as failed, without building anything, and adds
// them to [Host.Unavailable]; it returns the whole list. It runs the go
// command once per module, to learn its settings: a listing that wants to
// mark mods that do not build calls it, a host need not.
func (h *Host) CheckBuilds() []*ModError {
	if idx, err := h.prebuilt(); idx != nil || err != nil {
		// A prebuilt cache answers without the go command.
		for _, m := range h.mods {
			if m.stale == nil {
				if _, err := m.prebuiltBinary(idx, err); err != nil {
					m.show(err)
				}
			}
		}
		return h.Unavailable()
	}
	c, err := modbuild.OpenCache(h.opts.CacheDir)
	if err != nil {
		// One cache serves every mod: say why once.
		shown := false
		for _, m := range h.mods {
			if m.stale == nil {
				if e := m.unavailable(reasonCache, err); !shown {
					m.show(e)
					shown = true
				}
			}
		}
		return h.Unavailable()
	}
	for _, m := range h.mods {
		if m.stale != nil {
			continue
		}
		cfg, err := m.config()
		if err != nil {
			continue
		}
		r, err := modbuild.ReadRecord(c.Record(m.man.ID, cfg.Key))
		if err == nil && r != nil && r.Failure != "" && modbuild.Digest(r.Inputs) == r.Digest {
			h.report(m.buildFailure(r))
		}
	}
	return h.Unavailable()
}

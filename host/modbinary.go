package host

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modkit/modkit/internal/modbuild"
)

// config returns the build configuration of the mod (see
// modbuild.ConfigureIn): the host's cache keeps go env's answer.
func (m *mod) config() (*modbuild.Config, error) {
	return modbuild.ConfigureIn(m.h.opts.CacheDir, m.dir, m.man.GoPackage)
}

// stampRoot is the cache that keeps the sources' hashes across processes
// (freshness.CheckIn): the host's, unless it is a prebuilt cache, which
// the host never writes.
func (h *Host) stampRoot() string {
	if h.prebuilt == nil {
		return h.opts.CacheDir
	}
	if idx, err := h.prebuilt(); idx != nil || err != nil {
		return ""
	}
	return h.opts.CacheDir
}

// built is a mod binary in the cache.
type built struct {
	// path is the binary; record, the record naming it.
	path, record string
	// sum is the binary's SHA-256 as recorded when it was built.
	sum []byte
	// fileSum, when not nil, waits for the binary's SHA-256 as it is now,
	// taken in the background since the binary was found
	// (modbuild.SumAhead); the start compares it with sum.
	fileSum func() ([]byte, error)
	// used is when the entry was last marked used (the record's
	// modification time).
	used time.Time
	// prebuilt is a binary of a prebuilt cache, which the host never
	// writes.
	prebuilt bool
	// fresh says this host built it, rather than found it in the cache.
	fresh bool
}

// evict removes the binary and its record, so the next start builds it
// again.
func (b *built) evict() {
	modbuild.RemoveFile(b.record)
	modbuild.RemoveFile(b.path)
}

// reasonCache is the reason of a mod that cannot run because of the cache.
const reasonCache = "the host's build cache is unusable"

// binary returns the mod's binary: from a prebuilt cache, without the go
// command, or else built when needed (buildBinary).
func (m *mod) binary() (*built, error) {
	if idx, err := m.h.prebuilt(); idx != nil || err != nil {
		return m.prebuiltBinary(idx, err)
	}
	return m.buildBinary()
}

// buildBinary returns the mod's binary, building it first when the cache has
// none built from the current inputs. A binary found that was not used for
// modbuild.RefreshAfter is marked used under its record's lock, which
// keeps a trim from removing it; a build is followed by the cache's daily
// trim.
func (m *mod) buildBinary() (*built, error) {
	// The records are read beside the configuration, or were since the
	// call began (lookEarly).
	looked := m.takeEarly()
	if looked == nil {
		looked = make(chan *ahead, 1)
		go func() { looked <- m.lookAhead() }()
	}
	cfg, err := m.config()
	if err != nil {
		return nil, m.unavailable("the go command cannot build it", fmt.Errorf("mod %s (%s): %w", m.man.ID, m.given, err))
	}
	c, err := modbuild.OpenCache(m.h.opts.CacheDir)
	if err != nil {
		return nil, m.unavailable(reasonCache, err)
	}
	recPath := c.Record(m.man.ID, cfg.Key)
	b, err := m.cached(c, recPath, <-looked)
	if err != nil {
		return nil, err
	}
	if b != nil {
		if time.Since(b.used) < modbuild.RefreshAfter {
			return b, nil
		}
		ok, err := modbuild.Refresh(recPath, b.path, time.Now())
		if err != nil {
			return nil, m.unavailable(reasonCache, modbuild.CacheError(err))
		}
		if ok {
			return b, nil
		}
		// Trimmed meanwhile: build again.
	}
	b, err = m.buildLocked(c, cfg, recPath)
	if m.ctx.Err() == nil {
		m.trimCache(c)
	}
	return b, err
}

// trimCache runs the cache's daily trim, when due.
func (m *mod) trimCache(c *modbuild.Cache) {
	t, err := c.AutoTrim(time.Now())
	if err != nil {
		m.logger().Warn("trim the build cache", "error", err)
	} else if t != nil {
		m.logger().Debug("trimmed the build cache", "removed", t.Removed, "freed_bytes", t.Freed, "busy", t.Busy)
	}
}

// buildLocked builds the mod's binary under its record's lock, unless
// another host built it while this one waited for the lock.
func (m *mod) buildLocked(c *modbuild.Cache, cfg *modbuild.Config, recPath string) (*built, error) {
	unlock, err := modbuild.LockFile(recPath + ".lock")
	if err != nil {
		return nil, m.unavailable(reasonCache, modbuild.CacheError(err))
	}
	defer unlock()
	if b, err := m.cached(c, recPath, nil); b != nil || err != nil { // built by another host meanwhile
		if b != nil && time.Since(b.used) >= modbuild.RefreshAfter {
			now := time.Now()
			os.Chtimes(b.record, now, now)
			os.Chtimes(b.path, now, now)
		}
		return b, err
	}
	buildStart := time.Now()
	r, err := m.build(c, cfg)
	m.tele.buildEnded(m.man.ID, buildStart, err == nil && r.Failure == "")
	if err != nil {
		return nil, err
	}
	if err := modbuild.WriteRecord(recPath, r); err != nil {
		return nil, m.unavailable(reasonCache, modbuild.CacheError(err))
	}
	if r.Failure != "" {
		m.reportFailure(r)
		return nil, m.buildFailure(r)
	}
	modbuild.PruneOld(c.Bin, m.man.ID, cfg.Key, r.Binary)
	sum, _ := hex.DecodeString(r.Sum)
	return &built{path: filepath.Join(c.Bin, r.Binary), record: recPath, sum: sum, used: time.Now(), fresh: true}, nil
}

// ahead is what finding a mod's binary in the cache reads, begun while the
// go command reports the settings that make its key: the mod's newest
// record (modbuild.NewestRecord), the digest of its inputs and its
// binary's checksum, taken in the background. The start uses them only
// when the key names that record, unchanged.
type ahead struct {
	path    string
	r       *modbuild.Record
	digest  func() string
	fileSum func() ([]byte, error)
}

// lookAhead begins reading the inputs and binary of the mod's newest
// record among the last few whose inputs hold its directory; nil when
// there is none.
func (m *mod) lookAhead() *ahead {
	paths := modbuild.NewestRecords(m.h.opts.CacheDir, m.man.ID)
	for _, path := range paths[:min(len(paths), 4)] {
		r, err := modbuild.ReadRecord(path)
		if err == nil && r != nil && slices.ContainsFunc(r.Inputs, func(in modbuild.Input) bool { return in.Dir == m.dir }) {
			return m.readAhead(path, r)
		}
	}
	return nil
}

// readAhead begins the digest of r's inputs and the checksum of its binary.
func (m *mod) readAhead(path string, r *modbuild.Record) *ahead {
	a := &ahead{path: path, r: r, fileSum: sumAhead(filepath.Join(m.h.opts.CacheDir, "bin"), r)}
	digest := make(chan string, 1)
	go func() { digest <- modbuild.DigestIn(m.h.opts.CacheDir, path, r.Inputs) }()
	a.digest = sync.OnceValue(func() string { return <-digest })
	return a
}

// sumAhead begins the checksum of the binary r names in bin; nil when r
// names none.
func sumAhead(bin string, r *modbuild.Record) func() ([]byte, error) {
	if r.Failure != "" || r.Binary == "" {
		return nil
	}
	return modbuild.SumAhead(filepath.Join(bin, r.Binary))
}

// cached looks for a build of the current inputs and returns its binary,
// or the error of its recorded failure; nil and nil when there is none.
// ahead, when not nil, is the work begun on the mod's newest record.
func (m *mod) cached(c *modbuild.Cache, recPath string, ahead *ahead) (*built, error) {
	r, err := modbuild.ReadRecord(recPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, m.unavailable(reasonCache, err)
	}
	if r == nil {
		return nil, nil
	}
	var digest func() string
	var fileSum func() ([]byte, error)
	if ahead != nil && ahead.path == recPath && sameRecord(ahead.r, r) {
		digest, fileSum = ahead.digest, ahead.fileSum
	} else {
		// The binary's checksum, which its start needs, reads the file
		// while the inputs are hashed.
		fileSum = sumAhead(c.Bin, r)
		digest = func() string { return modbuild.DigestIn(m.h.opts.CacheDir, recPath, r.Inputs) }
	}
	if digest() != r.Digest {
		return nil, nil
	}
	if r.Failure != "" {
		m.reportFailure(r)
		return nil, m.buildFailure(r)
	}
	b := &built{path: filepath.Join(c.Bin, r.Binary), record: recPath, used: r.Used, fileSum: fileSum}
	if err := modbuild.CheckPrivate(b.path, false); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, m.unavailable(reasonCache, err)
	}
	if b.sum, err = hex.DecodeString(r.Sum); err != nil || len(b.sum) != sha256.Size {
		return nil, nil
	}
	return b, nil
}

// build lists the packages the mod's binary is built from, then builds it
// with an overlay that adds the serving main package in a virtual
// zz_modmain directory of the mod. A failed build is a record too.
func (m *mod) build(c *modbuild.Cache, cfg *modbuild.Config) (*modbuild.Record, error) {
	id := m.man.ID
	start := time.Now()
	fmt.Fprintf(m.h.opts.Progress, "building mod %s…\n", id)
	overlay, err := c.Overlay(id, cfg.Key, m.dir, modbuild.MainFile(m.man.GoPackage))
	if err != nil {
		return nil, m.unavailable(reasonCache, modbuild.CacheError(err))
	}
	out := modbuild.NewOutput(m.h.opts.Progress)
	inputs, err := modbuild.ListInputs(m.ctx, m.dir, overlay, cfg.Flags, cfg.ModCache, out)
	if err != nil {
		output := strings.TrimSpace(out.String())
		if err := m.notTheSources(err, output); err != nil {
			return nil, err
		}
		// The go command could not load the module (its go.mod needs
		// updates, say): a failure of the mod's own, recorded as a build's
		// until the module's files change.
		if output == "" {
			output = err.Error()
		}
		r := &modbuild.Record{Inputs: modbuild.ModuleInputs(m.dir), Failure: output}
		r.Digest = modbuild.Digest(r.Inputs)
		return r, nil
	}
	r := &modbuild.Record{Inputs: inputs, Digest: modbuild.Digest(inputs)}
	tmp, err := os.CreateTemp(c.Bin, ".build-"+id+"-*")
	if err != nil {
		return nil, m.unavailable(reasonCache, modbuild.CacheError(err))
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	// Close stops the build; the compiler's children get a moment to let go
	// of the output pipe.
	cmd := exec.CommandContext(m.ctx, "go", slices.Concat([]string{"build", "-overlay", overlay}, cfg.Flags, []string{"-o", tmp.Name(), "./zz_modmain"})...)
	cmd.WaitDelay = time.Second
	cmd.Dir = m.dir
	cmd.Stdout = out
	cmd.Stderr = out
	if err := cmd.Run(); err != nil {
		// Only a failure of the mod's own making is recorded: a build
		// stopped by Close, or failed for a cause outside the sources (a
		// full disk, a killed compiler), is tried again next time.
		output := strings.TrimSpace(out.String())
		if err := m.notTheSources(err, output); err != nil {
			return nil, err
		}
		r.Failure = output
		if r.Failure == "" {
			r.Failure = err.Error()
		}
		return r, nil
	}
	sum, err := modbuild.FileSum(tmp.Name())
	if err != nil {
		return nil, m.unavailable(reasonCache, modbuild.CacheError(err))
	}
	r.Sum = hex.EncodeToString(sum)
	r.Binary = modbuild.BinaryName(id, cfg.Key, r.Sum)
	if err := os.Chmod(tmp.Name(), 0o500); err != nil {
		return nil, m.unavailable(reasonCache, modbuild.CacheError(err))
	}
	if err := os.Rename(tmp.Name(), filepath.Join(c.Bin, r.Binary)); err != nil {
		return nil, m.unavailable(reasonCache, modbuild.CacheError(err))
	}
	fmt.Fprintf(m.h.opts.Progress, "built mod %s in %s\n", id, time.Since(start).Round(100*time.Millisecond))
	return r, nil
}

// buildFailure is the error of a mod whose build failed: the first lines
// of the compiler's output and the fix.
func (m *mod) buildFailure(r *modbuild.Record) *ModError {
	lines := strings.Split(r.Failure, "\n")
	if len(lines) > 10 {
		lines = append(lines[:10], fmt.Sprintf("… and %d more lines above", len(lines)-10))
	}
	return m.unavailable(reasonBuild, fmt.Errorf("mod %s (%s) does not build; %s:\n\t%s", m.man.ID, m.given, m.fix(r), strings.Join(lines, "\n\t")))
}

// reasonBuild is the reason of a mod whose build failed for its sources.
const reasonBuild = "it does not build"

// passingFailure is the error of a build that failed for a cause outside
// the mod's sources, which may pass: it says what happened and that the
// next start builds again. It is reported on Options.Progress, with the go
// command's output, and not remembered as the mod's reason not to run.
// notTheSources returns the error of a go command that failed through no
// fault of the mod's sources (the host closed, or the machine failed), nil
// when the sources are to blame.
func (m *mod) notTheSources(err error, output string) error {
	if m.ctx.Err() != nil {
		return ErrClosed
	}
	if cause := modbuild.PassingCause(err, output); cause != "" {
		return m.passingFailure(cause, output)
	}
	return nil
}

func (m *mod) passingFailure(cause, output string) *ModError {
	e := &ModError{Dir: m.given, Mod: m.man.ID, Reason: "its build failed: " + cause + "; the next call builds it again",
		Err: fmt.Errorf("mod %s (%s): the build failed for a cause outside the mod's sources, %s; nothing is remembered, and the next call builds again%s",
			m.man.ID, m.given, cause, modbuild.Indented(output))}
	m.h.report(e)
	return e
}

// fix says how to fix a failed build, in a directory the person owns: a
// mod the host copied from a published module is its author's to fix.
func (m *mod) fix(r *modbuild.Record) string {
	tidy := false
	for _, s := range []string{"missing go.sum entry", "no required module provides", "updates to go.mod needed"} {
		tidy = tidy || strings.Contains(r.Failure, s)
	}
	serving := !tidy || modbuild.RequiresServing(m.dir)
	switch {
	case m.copied() && !serving:
		return "it is a published module's copy whose go.mod lacks what the host's serving code imports: ask its author to add the tool " + modbuild.HostTool + ", run go mod tidy and publish a new version, then update it"
	case m.copied() && tidy:
		return "it is a published module's copy whose go.mod lacks what the host's build needs: ask its author for a version made with go mod tidy, then update it"
	case m.copied():
		return "it is a published module's copy: ask its author for a version that builds, then update it"
	case !serving:
		return "run go mod edit -tool " + modbuild.HostTool + " and go mod tidy in " + m.given + ", so that the module requires what the host's serving code imports"
	case tidy:
		return "run go mod tidy in " + m.given
	}
	return "fix the errors, then call again"
}

// copied reports whether the mod's directory is none of the person's: in
// the host's cache (a copy of a published module) or the module cache.
func (m *mod) copied() bool {
	if modbuild.Within(m.dir, m.h.opts.CacheDir) {
		return true
	}
	cfg, err := m.config()
	return err == nil && cfg.ModCache != "" && modbuild.Within(m.dir, cfg.ModCache)
}

// reportFailure writes a failed build's full output to the progress writer,
// once per failure and process.
func (m *mod) reportFailure(r *modbuild.Record) {
	m.errMu.Lock()
	defer m.errMu.Unlock()
	if m.reported == r.Digest {
		return
	}
	m.reported = r.Digest
	fmt.Fprintf(m.h.opts.Progress, "mod %s (%s) does not build; %s:\n%s\n", m.man.ID, m.given, m.fix(r), r.Failure)
}

// sameRecord reports whether a and b record the same build.
func sameRecord(a, b *modbuild.Record) bool {
	return a.Digest == b.Digest && a.Binary == b.Binary && a.Sum == b.Sum && a.Failure == b.Failure && reflect.DeepEqual(a.Inputs, b.Inputs)
}

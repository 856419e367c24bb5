package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/freshness"
	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modbuild"
	"github.com/modkit/modkit/internal/quickread"
	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/internal/schemacheck"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// Errors a caller acts on. Call, RenderView and the command methods return
// them wrapped with detail; test with errors.Is.
var (
	// ErrUnknownTool: no loaded mod has the tool; the message lists the
	// closest names.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrNotAllowed: the agent's allowlist does not name the tool.
	ErrNotAllowed = errors.New("tool not allowed")
	// ErrUnknownAgent: no loaded mod declares the agent.
	ErrUnknownAgent = errors.New("unknown agent")
	// ErrUnknownCommand: no loaded mod has the command or slash command.
	ErrUnknownCommand = errors.New("unknown command")
	// ErrNoView: the tool renders no custom view.
	ErrNoView = errors.New("tool has no view")
	// ErrClosed: the host was closed.
	ErrClosed = errors.New("host closed")
)

// Options configure a Host. A nil *Options means all defaults; a zero field
// means that field's default.
type Options struct {
	// CacheDir holds built mod binaries and the records of their builds.
	// Only the user may write it: the host creates it 0700 and refuses it
	// otherwise. Default: <os.UserCacheDir>/modkit.
	CacheDir string
	// CallTimeout bounds a tool's handler, from when its mod is ready: a
	// first call's build and start do not count. A call over it fails.
	// CallRequest.Timeout replaces it for one call. Default 5m.
	CallTimeout time.Duration
	// HookTimeout bounds each BeforeAction hook; a hook over it blocks the
	// action. Default 30s.
	HookTimeout time.Duration
	// CommandTimeout bounds a command or slash command. Default 5m.
	CommandTimeout time.Duration
	// ViewTimeout bounds the rendering of a view. Default 30s.
	ViewTimeout time.Duration
	// HandshakeTimeout bounds a mod process's start, from its launch to its
	// go-plugin handshake, and each request of the host that runs no mod
	// code: reading the mod's manifest after the handshake, and asking
	// whether a cancelled handler still runs. Default 10s.
	HandshakeTimeout time.Duration
	// ActivateTimeout bounds the mod's Activate function, run once per
	// process; a mod over it does not start. Default 1m.
	ActivateTimeout time.Duration
	// GracePeriod is how long a handler of a tool, hook, command or view may
	// keep running after it was cancelled or timed out before its mod
	// process ends: the mod ends itself, and the host kills it when it has
	// not shortly after. Default 2s.
	GracePeriod time.Duration
	// Logger receives the host's logs and the mods' logs at their level.
	// Default: discard.
	Logger *slog.Logger
	// Progress receives build messages ("building mod research…"); a failed
	// build's compiler errors are in the failure's message. Default:
	// discard.
	Progress io.Writer
	// MaxResultBytes caps a call's result (text, typed result and outputs
	// together) and a command's message; a larger one fails with a message
	// saying so. Default 1 MiB.
	MaxResultBytes int
	// MaxRequestBytes caps a call's input, a command's arguments and a
	// view's state; a larger one is refused before any mod sees it, with a
	// message naming the limit. The gRPC message limits between host and
	// mods, both ways, follow from it and MaxResultBytes. Default 4 MiB.
	MaxRequestBytes int
	// Today returns the date given to tools and commands, "YYYY-MM-DD".
	// Default: the local wall-clock date.
	Today func() string
	// ClientTimeout bounds the wait for a client handler's answer to a
	// call of a tool that runs in the client; a call over it fails.
	// Default 5m.
	ClientTimeout time.Duration
	// Installed are the directories, among those given to Load, of mods
	// installed from published modules (modhost's mods.lock) rather than
	// the user's own sources. They start only where this machine keeps
	// every promise of confinement, unless AllowUnconfined.
	Installed []string
	// AllowUnconfined lets installed mods (Installed) run where this
	// machine does not keep every promise of confinement (an older
	// kernel's Landlock, no Landlock, macOS, Windows), with the
	// confinement it offers, which may be none: with every right of the
	// user who runs the host. Mods from the user's own sources run so
	// without it. Where the machine keeps every promise, mods are confined
	// whatever it says.
	AllowUnconfined bool
	// RequireConfinement refuses to start any mod where this machine does
	// not keep every promise of confinement: each start fails with
	// ErrUnconfined naming what is not enforced. For servers. Without it,
	// mods from the user's own sources run with the strongest confinement
	// the machine offers, and the host logs once, at Load, what it does
	// not enforce. It contradicts AllowUnconfined.
	RequireConfinement bool
}

func (o *Options) withDefaults() (Options, error) {
	var r Options
	if o != nil {
		r = *o
	}
	if r.RequireConfinement && r.AllowUnconfined {
		return r, errors.New("host: Options.RequireConfinement and Options.AllowUnconfined contradict each other: set one")
	}
	if r.CacheDir == "" {
		dir, err := modbuild.DefaultRoot()
		if err != nil {
			return r, fmt.Errorf("host: %w", err)
		}
		r.CacheDir = dir
	}
	if r.CallTimeout <= 0 {
		r.CallTimeout = 5 * time.Minute
	}
	for _, d := range []struct {
		field *time.Duration
		def   time.Duration
	}{
		{&r.HookTimeout, 30 * time.Second},
		{&r.CommandTimeout, 5 * time.Minute},
		{&r.ViewTimeout, 30 * time.Second},
		{&r.HandshakeTimeout, 10 * time.Second},
		{&r.ActivateTimeout, time.Minute},
		{&r.GracePeriod, 2 * time.Second},
		{&r.ClientTimeout, 5 * time.Minute},
	} {
		if *d.field <= 0 {
			*d.field = d.def
		}
	}
	if r.Logger == nil {
		r.Logger = slog.New(slog.DiscardHandler)
	}
	if r.Progress == nil {
		r.Progress = io.Discard
	}
	if r.MaxResultBytes <= 0 {
		r.MaxResultBytes = limits.DefaultResultBytes
	}
	if r.MaxRequestBytes <= 0 {
		r.MaxRequestBytes = limits.DefaultRequestBytes
	}
	if r.Today == nil {
		r.Today = new(localDate).today
	}
	return r, nil
}

// Host runs mods: it lists their tools from manifests, starts each mod's
// process on first use, and routes calls, commands, hooks and views to it.
// It is safe for concurrent use.
type Host struct {
	opts   Options
	mods   []*mod
	tools  map[string]*tool
	agents map[string]*agent
	cmds   map[string]*mod // command id -> owner
	slash  map[string]*mod // slash command id -> owner
	// callHooks, when some mod hooks every tool call, runs the hooks on
	// one (made once: not a closure per call); callHooker is that mod when
	// it is the only one.
	callHooks  func(ctx context.Context, req *modapi.ActionRequest) (refusal string, err error)
	callHooker *mod
	// loadErrs are the directories that did not load.
	loadErrs []*ModError
	// sendGrace sends the grace period to mods, which then end themselves;
	// tests turn it off to exercise the host's backstop.
	sendGrace bool
	// noLane and noLaneSteps keep mods started from then on from a call
	// lane, or a call's steps off it (as an older mod), for tests of the
	// gRPC way.
	noLane, noLaneSteps bool
	// idPrefix and calls make call ids.
	idPrefix string
	calls    atomic.Uint64
	// sweepOnce sweeps socket directories left by dead hosts, once, while
	// the first mod starts.
	sweepOnce sync.Once
	// prebuilt reads the index of a prebuilt cache once: nil when
	// Options.CacheDir is not one.
	prebuilt func() (*modbuild.Index, error)
	// enforced is what this machine enforces of the promises of
	// confinement, learnt at Load.
	enforced *sandbox.Enforcement
	// gaps names the promises this machine does not keep; nil when it
	// keeps them all.
	gaps error
	// installed holds the absolute directories of Options.Installed.
	installed map[string]bool
	// client holds the handlers of tools that run in the client.
	clientTools clientTools
	// feat holds resources, templates and resource update listeners.
	feat features

	ctx    context.Context // the host's lifetime; Close cancels it
	cancel context.CancelFunc
	mu     sync.Mutex
	closed bool
}

type tool struct {
	mod *mod
	man manifest.Tool
	// calls is made at the tool's first use, not at load: a load lists
	// every tool and calls few, and making these for each tool was most
	// of the allocations of a first load.
	callsOnce sync.Once
	calls     *toolCalls
}

// toolCalls is what calls of a tool need.
type toolCalls struct {
	// schema compiles the input schema on the tool's first call, so that
	// loading and listing stay cheap.
	schema func() (*schemacheck.Schema, error)
	// checkActions checks the client actions a call emits against the
	// manifest (callflow.ActionCheck).
	checkActions func([]sdk.ClientAction) string
	// resultSchema compiles the result schema, on a client's first answer.
	resultSchema func() (*schemacheck.Schema, error)
	// checkResult is checkResultOf bound to the tool, and clientClosed the
	// failure of a call whose client went away (callflow.Call's fields),
	// made once rather than on every call.
	checkResult  func(result []byte) ([]string, error)
	clientClosed string
}

// callFuncs returns t's toolCalls, making them at the first use.
func (t *tool) callFuncs() *toolCalls {
	t.callsOnce.Do(func() {
		m := t.mod
		t.calls = &toolCalls{
			schema: sync.OnceValues(func() (*schemacheck.Schema, error) {
				return schemacheck.ToolInput(m.man.ID, t.man)
			}),
			checkActions: callflow.ActionCheck(m.man, t.man),
			resultSchema: sync.OnceValues(func() (*schemacheck.Schema, error) {
				return schemacheck.ToolResult(m.man.ID, t.man)
			}),
			checkResult:  t.checkResultOf,
			clientClosed: "the host closed before the client answered tool " + t.man.Name,
		}
	})
	return t.calls
}

// schema returns the tool's compiled input schema.
func (t *tool) schema() (*schemacheck.Schema, error) { return t.callFuncs().schema() }

// resultSchema returns the tool's compiled result schema.
func (t *tool) resultSchema() (*schemacheck.Schema, error) { return t.callFuncs().resultSchema() }

type agent struct {
	mod     *mod
	man     manifest.Agent
	allowed map[string]bool
}

// Tool is a tool as listed by the host. Its Annotations are read-only,
// whatever the manifest declares, when the host confines the tool's mod
// and the mod declares no permission to write the workspace, connect or
// run programs: its process cannot change anything.
type Tool struct {
	// Mod is the id of the mod that has the tool.
	Mod string
	manifest.Tool
	// ClientActionKinds are the kinds of client action the tool may emit,
	// with their params schemas, in the order of Tool.ClientActions.
	ClientActionKinds []manifest.ClientActionKind
}

// Load reads the manifest in each directory, checks that the mod's
// generated files match its sources, and that tool, agent and command
// names are unique. It starts no process: a mod starts, and is built when
// needed, on first use.
//
// A bad mod directory does not fail Load: it is reported by
// [Host.Unavailable], logged, and written once to [Options.Progress], and
// the other mods load. A directory that does not load (no such directory,
// no manifest, a manifest that does not decode, not a Go package, a name
// another mod has) adds no tools; a mod whose generated files are stale
// keeps its tools listed, and their calls fail saying it is unavailable.
// Load returns an error only for bad options.
func Load(dirs []string, opts *Options) (*Host, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	h := &Host{
		opts:      o,
		agents:    map[string]*agent{},
		cmds:      map[string]*mod{},
		slash:     map[string]*mod{},
		sendGrace: true,
		idPrefix:  newIDPrefix(),
	}
	if err := h.checkSandbox(); err != nil {
		return nil, err
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.prebuilt = sync.OnceValues(func() (*modbuild.Index, error) { return modbuild.ReadIndex(o.CacheDir) })
	ids := make(map[string]*mod, len(dirs))
	all := loadMods(h, dirs)
	tools := 0
	for _, l := range all {
		if l.m != nil {
			tools += len(l.m.man.Tools)
		}
	}
	h.tools = make(map[string]*tool, tools)
	for _, l := range all {
		m, err := l.m, l.err
		if err == nil {
			err = h.add(m, ids)
		}
		if err != nil {
			h.loadErrs = append(h.loadErrs, err)
			h.report(err)
		}
	}
	// A prebuilt cache is checked now, without the go command: a mod it
	// holds no current build of is unavailable from the start.
	if idx, err := h.prebuilt(); idx != nil || err != nil {
		h.CheckBuilds()
	}
	for name, a := range h.agents {
		for n := range a.allowed {
			if _, ok := h.tools[n]; !ok {
				o.Logger.Warn("agent names a tool no loaded mod has", "agent", name, "mod", a.mod.man.ID, "tool", n)
			}
		}
	}
	return h, nil
}

// report tells the person running the host why a mod cannot run.
func (h *Host) report(e *ModError) {
	h.opts.Logger.Warn("mod unavailable", "dir", e.Dir, "mod", e.Mod, "error", e.Err)
	fmt.Fprintf(h.opts.Progress, "%v\n", e.Err)
}

// add adds a loaded mod's names, or none of them when one clashes with
// another mod's.
func (h *Host) add(m *mod, ids map[string]*mod) *ModError {
	clash := func(kind, name string, prev *mod) *ModError {
		return &ModError{Dir: m.given, Mod: m.man.ID, Reason: "its " + kind + " names clash with another mod's",
			Err: fmt.Errorf("load %s: %s %s is defined by both mod %s (%s) and mod %s; rename one of them",
				m.given, kind, name, prev.man.ID, prev.given, m.man.ID)}
	}
	if prev, ok := ids[m.man.ID]; ok {
		return &ModError{Dir: m.given, Mod: m.man.ID, Reason: "another mod has its id",
			Err: fmt.Errorf("load %s: mod id %q is also the id of the mod in %s; rename one of them", m.given, m.man.ID, prev.given)}
	}
	for _, t := range m.man.Tools {
		if prev, ok := h.tools[t.Name]; ok {
			return clash("tool", t.Name, prev.mod)
		}
	}
	for _, a := range m.man.Agents {
		if prev, ok := h.agents[a.Name]; ok {
			return clash("agent", a.Name, prev.mod)
		}
	}
	for _, c := range m.man.Commands {
		if prev, ok := h.cmds[c.ID]; ok {
			return clash("command", c.ID, prev)
		}
	}
	for _, c := range m.man.SlashCommands {
		if prev, ok := h.slash[c.ID]; ok {
			return clash("slash command", c.ID, prev)
		}
	}
	if e := h.featuresClash(m, clash); e != nil {
		return e
	}
	ids[m.man.ID] = m
	h.addFeatures(m)
	// One allocation a tool: its call functions are made at its first use.
	tools := make([]tool, len(m.man.Tools))
	for i := range tools {
		t := &tools[i]
		t.mod, t.man = m, m.man.Tools[i]
		h.tools[t.man.Name] = t
	}
	for _, a := range m.man.Agents {
		allowed := make(map[string]bool, len(a.Tools))
		for _, n := range a.Tools {
			allowed[n] = true
		}
		h.agents[a.Name] = &agent{mod: m, man: a, allowed: allowed}
	}
	for _, c := range m.man.Commands {
		h.cmds[c.ID] = m
	}
	for _, c := range m.man.SlashCommands {
		h.slash[c.ID] = m
	}
	h.mods = append(h.mods, m)
	if m.hasHook(manifest.ActionToolCall) {
		h.callHooker = nil
		if h.callHooks == nil {
			h.callHooker = m
			h.callHooks = func(ctx context.Context, req *modapi.ActionRequest) (string, error) {
				return h.runHooks(ctx, req, nil)
			}
		}
	}
	if m.stale != nil {
		h.report(m.stale)
	}
	return nil
}

// loadMod reads the mod in dir and checks its generated files against its
// sources. It reads the manifest into *buf, the caller's to reuse.
func loadMod(h *Host, dir string, buf *[]byte) (*mod, *ModError) {
	fail := func(format string, args ...any) (*mod, *ModError) {
		return nil, &ModError{Dir: dir, Reason: "it does not load", Err: fmt.Errorf("load "+dir+": "+format, args...)}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fail("%w", err)
	}
	data, err := quickread.FileInto(*buf, filepath.Join(abs, manifest.FileName), 0)
	if err != nil {
		// What dir is says why; a directory is looked at only then.
		fi, statErr := os.Stat(abs)
		switch {
		case errors.Is(statErr, os.ErrNotExist):
			return fail("no such mod directory")
		case statErr != nil:
			return fail("%w", statErr)
		case !fi.IsDir():
			return fail("not a directory")
		case errors.Is(err, os.ErrNotExist):
			return fail("no %s; run go generate in %s", manifest.FileName, dir)
		}
		return fail("%w", err)
	}
	*buf = data
	man, err := decodeManifest(data)
	if err != nil {
		return fail("%s: %w; run go generate in %s to write it again", manifest.FileName, err, dir)
	}
	m := &mod{h: h, dir: abs, man: man, availability: availability{given: dir}, installed: h.installed[abs]}
	m.ctx, m.cancel = context.WithCancel(h.ctx)
	if err := freshness.CheckIn(h.stampRoot(), dir, man.ID, man.SourceHash); err != nil {
		e := &ModError{Dir: dir, Mod: man.ID, Err: err, Reason: "its generated files are out of date"}
		if errors.Is(err, freshness.ErrNoGoFiles) {
			e.Reason = "it does not load"
			return nil, e
		}
		m.stale = e
	}
	return m, nil
}

// Mods returns copies of the loaded mods' manifests, in load order.
func (h *Host) Mods() []*manifest.Manifest {
	out := make([]*manifest.Manifest, len(h.mods))
	for i, m := range h.mods {
		out[i] = m.man.Clone()
	}
	return out
}

// Tools returns the tools the agent may call, sorted by name; "" means no
// agent: every tool. An unknown agent is an error. A tool that declares no
// icons has its mod's.
func (h *Host) Tools(agentName string) ([]Tool, error) {
	var a *agent
	if agentName != "" {
		var ok bool
		if a, ok = h.agents[agentName]; !ok {
			return nil, h.unknownAgent(agentName)
		}
	}
	// Sorted by name first, then copied: sorting the copies moved every
	// manifest.Tool's many fields at each swap.
	picked := make([]*tool, 0, len(h.tools))
	for _, t := range h.tools {
		if a == nil || a.allowed[t.man.Name] {
			picked = append(picked, t)
		}
	}
	slices.SortFunc(picked, func(x, y *tool) int { return strings.Compare(x.man.Name, y.man.Name) })
	// The copies' schemas share one buffer, each capped at its end: one
	// allocation for all, not two a tool.
	n := 0
	for _, t := range picked {
		n += len(t.man.InputSchema) + len(t.man.ResultSchema)
	}
	schemas := make([]byte, 0, n)
	out := make([]Tool, 0, len(picked))
	for _, t := range picked {
		mt := t.man
		mt.InputSchema, mt.ResultSchema = nil, nil
		mt = mt.Clone()
		mt.InputSchema, schemas = appendCapped(schemas, t.man.InputSchema)
		mt.ResultSchema, schemas = appendCapped(schemas, t.man.ResultSchema)
		if a := h.readOnly(t); a != nil {
			mt.Annotations = a
		}
		if len(mt.Icons) == 0 {
			mt.Icons = cloneIcons(t.mod.man.Icons) // the mod's stand for its tools that have none
		}
		out = append(out, Tool{Mod: t.mod.man.ID, Tool: mt, ClientActionKinds: t.mod.man.ToolClientActions(t.man)})
	}
	return out, nil
}

// appendCapped appends b to buf and returns the copy, capped at its end so
// that appending to it never writes into buf, and buf; a nil b stays nil.
func appendCapped(buf, b []byte) ([]byte, []byte) {
	if b == nil {
		return nil, buf
	}
	start := len(buf)
	buf = append(buf, b...)
	return buf[start:len(buf):len(buf)], buf
}

// cloneIcons returns a deep copy of icons: a copy of the mod's icons
// alone, not of its whole manifest, for each of its tools listed.
func cloneIcons(icons []manifest.Icon) []manifest.Icon {
	out := slices.Clone(icons)
	for i := range out {
		out[i].Sizes = slices.Clone(out[i].Sizes)
	}
	return out
}

func (h *Host) unknownAgent(name string) error {
	names := make([]string, 0, len(h.agents))
	for n := range h.agents {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return fmt.Errorf("%w %q: no loaded mod declares agents", ErrUnknownAgent, name)
	}
	return fmt.Errorf("%w %q; agents: %s", ErrUnknownAgent, name, strings.Join(names, ", "))
}

func (h *Host) unknownTool(name string) error {
	names := make([]string, 0, len(h.tools))
	for n := range h.tools {
		names = append(names, n)
	}
	close := closest(name, names, 3)
	if len(close) == 0 {
		return fmt.Errorf("%w %q", ErrUnknownTool, name)
	}
	return fmt.Errorf("%w %q; closest: %s", ErrUnknownTool, name, strings.Join(close, ", "))
}

func (h *Host) isClosed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// Close stops every mod process, and any build or start under way, and
// waits for the processes to exit. Each process is asked to shut down,
// which cancels its handlers, and is killed when it has not exited a few
// seconds later: Close returns within that time whatever the mods do.
// Calls in flight fail, saying the host closed; calls after Close return
// ErrClosed.
func (h *Host) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	h.mu.Unlock()
	// First stop builds, starts and the host's watchers: a start that ends
	// now kills its process itself, so every other is the mod's current.
	h.cancel()
	var procs []*proc
	for _, m := range h.mods {
		for _, p := range m.take() {
			p.stopBecause("the host closed")
			procs = append(procs, p)
		}
	}
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.kill()
		}()
	}
	wg.Wait()
	return nil
}

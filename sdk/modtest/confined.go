package modtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modbuild"
	"github.com/modkit/modkit/internal/modproc"
	"github.com/modkit/modkit/internal/modserver"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/goplugin"
	"github.com/modkit/modkit/internal/sandbox"
	"github.com/modkit/modkit/internal/schemacheck"
	"github.com/modkit/modkit/internal/sdkrt"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/serve"
)

// serveFlag is the flag through which modtest tells the test binary it
// re-executes which mod to serve: flags are parsed once every package has
// initialized, so the mod's package-level DefineMod has run.
const serveFlag = "modtest.serve"

func init() {
	flag.Func(serveFlag, "serve the mod with this id, as sdk/modtest's confined process (set by modtest, never by hand)", serveChild)
}

// serveChild serves, in the test binary modtest re-executed, the mod id
// declared by a package-level sdk.DefineMod, with the manifest the test
// writes on stdin, as a mod's binary serves it; then it exits, never
// returning to the flag parsing (or the tests) it interrupts.
func serveChild(id string) error {
	if err := serveDefined(id); err != nil {
		fmt.Fprintf(os.Stderr, "modtest: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
	return nil
}

func serveDefined(id string) error {
	man, err := io.ReadAll(os.Stdin)
	if err != nil {
		return fmt.Errorf("read the manifest of mod %s: %v", id, err)
	}
	def, ok := sdkrt.Defined(id)
	if !ok {
		return fmt.Errorf("no package-level sdk.DefineMod declares mod %s", id)
	}
	// The generated decoders are functions of the test's binary no process
	// can pass: the test judges input with them before the call, and this
	// process decodes it with encoding/json, as for a mod without them.
	return serve.Serve(&sdk.Generated{Mod: def.(sdk.Mod), Manifest: man}, nil)
}

// said holds the notes modtest gives once per test binary.
var said sync.Map

// sayOnce logs msg through log the first time key is said to a logger.
func sayOnce(log *slog.Logger, key, msg string) {
	if log == nil {
		return
	}
	if _, dup := said.LoadOrStore(key, true); !dup {
		log.Warn(msg)
	}
}

// confinable returns g's manifest when g can run in a confined process of
// the test binary, as a host would confine it; else it says once why it
// runs in the test's process and returns nil.
func confinable(g *sdk.Generated, opts *Options) (*manifest.Manifest, *sandbox.Enforcement) {
	if opts.Unconfined {
		return nil, nil
	}
	e, err := sandbox.Current() // MODKIT_LANDLOCK_MAX_ABI read at each call
	switch {
	case err != nil:
		sayOnce(opts.Logger, "enforcement", "modtest: mods run in the test's process, unconfined: "+err.Error())
		return nil, nil
	case !e.Confines():
		sayOnce(opts.Logger, "enforcement", "modtest: mods run in the test's process, unconfined: nothing confines a process here: "+e.Gaps().Error())
		return nil, nil
	case e.Gaps() != nil:
		sayOnce(opts.Logger, "enforcement", "modtest: mods run with the confinement this machine offers; "+e.Gaps().Error())
	}
	id := modID(g)
	why := ""
	man, err := manifest.Decode(g.Manifest)
	if def, ok := sdkrt.Defined(id); !ok || !sameValue(g.Mod, def.(sdk.Mod)) {
		why = "it is not the value a package-level sdk.DefineMod declares, which the confined process would serve"
	} else if err != nil {
		why = "its manifest: " + err.Error()
	}
	if why != "" {
		sayOnce(opts.Logger, "mod "+id, "modtest: mod "+id+" runs in the test's process, unconfined: "+why)
		return nil, nil
	}
	return man, e
}

// testedMod is a mod as modtest calls it: its server code in the test's
// process, or a confined process's client.
type testedMod interface {
	modapi.Mod
	modapi.ApprovalRule
	modapi.Features
}

// open returns g as one call of a test meets it: served by a confined
// process when confinable says so, whose stop the caller defers, else
// the server code in the test's process (c nil).
func open(g *sdk.Generated, opts *Options) (m testedMod, c *confinedMod, err error) {
	if man, e := confinable(g, opts); man != nil {
		if c, err = startConfined(g, man, e, opts); err != nil {
			return nil, nil, err
		}
		return c, c, nil
	}
	return modserver.New(g, opts.Logger), nil, nil
}

// served is open for a function with a testing.TB: a mod whose process
// cannot start fails t. The caller defers stop.
func served(t testing.TB, g *sdk.Generated, opts *Options) (m testedMod, stop func()) {
	t.Helper()
	m, c, err := open(g, opts)
	if err != nil {
		t.Fatalf("modtest: %v", err)
	}
	return m, c.stop
}

// confinedMod is a mod served by a confined process of the test binary,
// started for one call and stopped after it.
type confinedMod struct {
	testedMod // the process's client
	g         *sdk.Generated
	// local is the mod in the test's process, for its generated
	// validators, which the confined process lacks.
	local  *modserver.Server
	client *plugin.Client
	run    *modproc.Runner
	tail   *modproc.Tail
	dir    string
}

// startConfined starts a process of the test binary that serves g, whose
// manifest is man, confined to workspace as a host confines a mod with
// its declared permissions on this machine (e).
func startConfined(g *sdk.Generated, man *manifest.Manifest, e *sandbox.Enforcement, opts *Options) (*confinedMod, error) {
	id := man.ID
	bin, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("start mod %s confined: %w", id, err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	dir, err := modproc.NewSocketDir(id)
	if err != nil {
		return nil, fmt.Errorf("start mod %s confined: %w", id, err)
	}
	cmd := exec.Command(bin, "-"+serveFlag+"="+id)
	cmd.Stdin = bytes.NewReader(g.Manifest)
	cmd.SysProcAttr = modproc.SysProcAttr()
	policy := modproc.Policy(man.Permissions, bin, dir, opts.Workspace, pathVars, log.Warn)
	policy.ABI = e.ABI
	policy.Seccomp = e.Seccomp == nil
	policy.CheckHosts = e.HostCheck == nil
	m := &confinedMod{g: g, local: modserver.New(g, opts.Logger), run: modproc.NewRunner(cmd, nil, policy), tail: &modproc.Tail{}, dir: dir}
	maxMsg := limits.MessageBytes(limits.DefaultRequestBytes, maxBytes(opts))
	m.client = plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  goplugin.Handshake,
		VersionedPlugins: goplugin.HostPluginSets(maxMsg),
		RunnerFunc: func(_ hclog.Logger, spec *exec.Cmd, _ string) (runner.Runner, error) {
			cmd.Env = append(modproc.Env(man.Permissions, spec.Env, dir), protocol.EnvLogLevel+"=debug")
			return m.run, nil
		},
		UnixSocketConfig: &plugin.UnixSocketConfig{TempDir: dir},
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		AutoMTLS:         protocol.AutoMTLS,
		Logger:           goplugin.HCLogger(slog.New(modLines{log.Handler(), filepath.Base(bin)})),
		Stderr:           m.tail,
		SyncStdout:       modproc.NewLineLogger(log, "stdout", nil),
		SyncStderr:       modproc.NewLineLogger(log, "stderr", nil),
		GRPCDialOptions:  append(protocol.DialOptions(maxMsg), protocol.PeerDialOptions(m.run.PID)...),
	})
	var startErr error
	modproc.OnStarterThread(func() { _, startErr = m.client.Start() })
	if startErr != nil {
		m.stop()
		return nil, m.failed(startErr)
	}
	rpc, err := m.client.Client()
	if err != nil {
		m.stop()
		return nil, m.failed(err)
	}
	raw, err := rpc.Dispense(protocol.PluginName)
	if err != nil {
		m.stop()
		return nil, m.failed(err)
	}
	var ok bool
	if m.testedMod, ok = raw.(testedMod); !ok {
		m.stop()
		return nil, fmt.Errorf("start mod %s confined: plugin is %T, want a mod client", id, raw)
	}
	if policy.Reportable() {
		desc, err := m.Describe(context.Background(), &modapi.DescribeRequest{})
		if err != nil || !desc.Confined {
			m.stop()
			return nil, fmt.Errorf("start mod %s confined: the process does not report being confined (%v)", id, err)
		}
	}
	return m, nil
}

// failed is why the process could not start, with the end of its stderr.
func (m *confinedMod) failed(err error) error {
	msg := fmt.Sprintf("start mod %s confined: %v", modID(m.g), err)
	if last := m.tail.Last(); len(last) > 0 {
		msg += "; its stderr ends: " + strings.Join(last, " | ")
	}
	if errors.Is(err, plugin.ErrProcessNotFound) || m.run.ExitStatus() != "" {
		msg += " (" + m.run.ExitStatus() + ")"
	}
	return errors.New(msg + "; the package's initialization and TestMain run in that process too, confined, before it serves; Options.Unconfined runs the mod in the test's process")
}

// stop kills the process and removes its directory; it does nothing for
// a nil m, a mod in the test's process. The call has ended: nothing is
// left for the process to finish, and a race-enabled binary would sleep a
// second on a graceful exit.
func (m *confinedMod) stop() {
	if m == nil {
		return
	}
	m.run.KillNow()
	m.client.Kill()
	os.RemoveAll(m.dir)
}

// validate judges a tool's input in the test's process with the mod's
// generated validator and gives the input the process decodes, with its
// defaults, as a host does for a mod without generated code; handled is
// false for a tool with no generated validator, whose input the process
// decodes as the test's own would.
func (m *confinedMod) validate(t manifest.Tool, input json.RawMessage) (problems []string, withDefaults json.RawMessage, handled bool) {
	if _, ok := m.g.Inputs[t.Name]; !ok {
		return nil, nil, false
	}
	resp, err := m.local.CheckInput(context.Background(), &modapi.CheckRequest{Tool: t.Name, Input: input})
	switch {
	case err != nil || resp.Error != "":
		return nil, nil, false // the process words it
	case len(resp.Problems) > 0:
		return resp.Problems, nil, true
	}
	s, err := schemacheck.ToolInput(modID(m.g), t)
	if err != nil {
		return nil, nil, false
	}
	return nil, s.WithDefaults(input), true
}

// pathVars are the values of manifest.PathVars for a mod under test, whose
// package is the working directory.
func pathVars() map[string]string {
	vars := map[string]string{}
	if env, err := modbuild.GoEnv("."); err == nil {
		for _, k := range []string{"GOROOT", "GOMODCACHE", "GOCACHE"} {
			vars[k] = env[k]
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		vars["HOME"] = home
	}
	return vars
}

// modLines passes on the lines the mod's process logs, which go-plugin
// re-logs under the binary's name, and drops go-plugin's own: modtest
// reports a process that fails itself.
type modLines struct {
	slog.Handler
	name string
}

func (h modLines) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "plugin address" { // go-plugin's server, in the mod
		return nil
	}
	mod := false
	r.Attrs(func(a slog.Attr) bool {
		mod = a.Key == "logger" && a.Value.String() == h.name
		return !mod
	})
	if !mod {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h modLines) WithAttrs(attrs []slog.Attr) slog.Handler {
	return modLines{h.Handler.WithAttrs(attrs), h.name}
}

func (h modLines) WithGroup(name string) slog.Handler {
	return modLines{h.Handler.WithGroup(name), h.name}
}

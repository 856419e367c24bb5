package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpbridge"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// Exit codes.
const (
	exitOK        = 0
	exitFailed    = 1
	exitUsage     = 2
	exitCancelled = 130
)

func main() {
	// Every command ends on an ending signal through its context, so that
	// the mods it started stop and leave nothing behind.
	ctx, stop := untilSignal(context.Background())
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// env is what every subcommand gets: the global flags and the standard
// streams.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	mods           []string
	// modsFlag is --mods as given, for build, which resolves it itself.
	modsFlag  string
	workspace string
	agent     string
	// scopes are the OAuth scopes the local user holds (--scopes); nil
	// for every scope.
	scopes []string
	// installed are the directories of mods installed from mods.lock.
	installed []string
	// allowUnconfined runs installed mods where the machine does not keep
	// every promise of confinement.
	allowUnconfined bool
	// requireConfinement refuses every mod there instead.
	requireConfinement bool
	// noticeOnce says once per process, as dev loads again and again,
	// what this machine does not enforce.
	noticeOnce sync.Once
	logFormat  string // "text" or "json"
}

// usageError is a mistake in the command line: exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// subcommands are modhost's commands; mcp is defined in mcp.go.
var subcommands = map[string]func(ctx context.Context, e *env, args []string) int{
	"list":    runList,
	"inspect": runInspect,
	"call":    runCall,
	"command": runCommand,
	"slash":   runSlash,
	"mcp":     runMCP,
	"dev":     runDev,
	"get":     runGet,
	"update":  runUpdate,
	"remove":  runRemove,
	"verify":  runVerify,
	"cache":   runCache,
	"build":   runBuild,
	"sandbox": runSandbox,
	"read":    runRead,
	"prompt":  runPrompt,
}

// needsMods reports whether the command runs mods; the lock and cache
// commands do not (get loads the ones it installs, build the ones it
// builds).
func needsMods(name string) bool {
	return !lockCommands[name] && name != "cache" && name != "cache trim" && name != "build" && name != "sandbox"
}

const usage = `usage: modhost [--mods DIR[,DIR...]] [--workspace DIR] [--agent NAME] [--scopes LIST] [--allow-unconfined|--require-confinement] [--log-format text|json] COMMAND [ARGS]

commands:
  list [--json] [tools|prompts|resources]
                                        list tools, prompts (slash commands) or resources
  inspect [--json|--markdown] [MOD]     show manifests
  call [--json] [--yes] [--timeout D] [--session ID] TOOL [INPUT_JSON|-]
                                        run a tool
  command ID [ARGS_JSON]                run a command
  slash ID [TEXT...]                    run a slash command
  read [--out FILE] URI | URI_TEMPLATE NAME=VALUE...
                                        read a resource
  prompt [--answer K=V] NAME [ARG=VALUE...]
                                        get a prompt's messages
  mcp [--http ADDR] [--metrics-addr ADDR] [--session-timeout D] [--max-sessions N]
      [--auth-issuer URL --resource URL [--auth-claims LIST]]
                                        serve tools over the Model Context Protocol
  dev [--addr HOST:PORT] [--metrics-addr ADDR] [--open]
                                        serve the mod author's web inspector, with live reload
  get [--yes] MODULE[/PACKAGE][@VERSION]...
                                        install a published mod: fetch, verify, build, pin in mods.lock
  update [--yes] [MODULE...]            move locked mods to their latest versions
  remove MODULE...                      remove mods from mods.lock
  verify                                fetch the locked mods again and compare them with mods.lock
  cache [--json]                        show the build cache's directory and size
  cache trim [-n] [--unused D]          remove what the build cache has not used for 5 days (D)
  build [-o DIR] [--goos OS] [--goarch ARCH]
                                        build every mod into a prebuilt cache, for a host with no go command
  sandbox [--json]                      show what this machine enforces of the mods' confinement

Every command also runs the mods ./mods.lock pins, from the module cache.

modhost COMMAND --help (or modhost help COMMAND) explains a command and its flags.
`

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("modhost", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	mods := fs.String("mods", "", "mod directories, comma-separated")
	workspace := fs.String("workspace", "", "the session's workspace directory")
	agent := fs.String("agent", "", "call tools as this agent")
	var scopes []string
	fs.Func("scopes", "hold only these OAuth scopes, comma-separated (default: every scope): tools, prompts, resources and commands that need another are hidden and refused", func(s string) error {
		scopes = []string{}
		for sc := range strings.SplitSeq(s, ",") {
			if sc = strings.TrimSpace(sc); sc != "" {
				if !manifest.IsScopeToken(sc) {
					return fmt.Errorf("%q is not an OAuth scope", sc)
				}
				scopes = append(scopes, sc)
			}
		}
		return nil
	})
	allowUnconfined := fs.Bool("allow-unconfined", false, "run mods installed from mods.lock even where this machine does not enforce every declared limit")
	requireConfinement := fs.Bool("require-confinement", false, "start no mod where this machine does not enforce every declared limit (for servers)")
	logFormat := fs.String("log-format", "text", "log as `text` or json lines (log/slog), with trace and call ids; json logs at info unless $MODHOST_LOG sets a level")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return exitOK
		}
		fmt.Fprintf(stderr, "modhost: %v\n%s", err, usage)
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	name, rest := fs.Arg(0), fs.Args()[1:]
	if name == "help" {
		if len(rest) == 0 {
			fmt.Fprint(stdout, usage)
			return exitOK
		}
		// modhost help COMMAND is modhost COMMAND --help.
		name, rest = rest[0], []string{"--help"}
	}
	sub, ok := subcommands[name]
	if !ok {
		fmt.Fprintf(stderr, "modhost: unknown command %q\n%s", name, usage)
		return exitUsage
	}
	if *logFormat != "text" && *logFormat != "json" {
		fmt.Fprintf(stderr, "modhost: --log-format %q: want text or json\n%s", *logFormat, usage)
		return exitUsage
	}
	if *allowUnconfined && *requireConfinement {
		fmt.Fprintf(stderr, "modhost: --allow-unconfined and --require-confinement contradict each other: pass one\n%s", usage)
		return exitUsage
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, agent: *agent, logFormat: *logFormat,
		allowUnconfined: *allowUnconfined, requireConfinement: *requireConfinement, scopes: scopes, modsFlag: *mods}
	if helpAsked(rest) {
		// The command parses its flags, and prints its help, before it
		// needs any mod.
		return sub(ctx, e, rest)
	}
	if !needsMods(name) {
		return sub(ctx, e, rest)
	}
	ws := *workspace
	if ws == "" {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(stderr, "modhost: %v\n", err)
			return exitFailed
		}
		ws = wd
	}
	abs, err := filepath.Abs(ws)
	if err != nil {
		fmt.Fprintf(stderr, "modhost: workspace: %v\n", err)
		return exitUsage
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		fmt.Fprintf(stderr, "modhost: workspace %s is not a directory\n", ws)
		return exitUsage
	}
	e.workspace = abs
	locked, err := lockedMods(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "modhost: %v\n", err)
		return exitFailed
	}
	e.mods, err = modDirs(*mods, len(locked) > 0)
	if err != nil {
		fmt.Fprintf(stderr, "modhost: %v\n", err)
		return exitUsage
	}
	e.mods = append(e.mods, locked...)
	e.installed = locked
	return sub(ctx, e, rest)
}

// helpAsked reports whether a subcommand's flags, before its first
// argument, ask for help: then modhost needs no mods to answer.
func helpAsked(args []string) bool {
	for _, a := range args {
		switch {
		case a == "-h" || a == "-help" || a == "--h" || a == "--help":
			return true
		case a == "--" || !strings.HasPrefix(a, "-"):
			return false
		}
	}
	return false
}

// modDirs resolves --mods: the flag, else $MODHOST_MODS, else, when
// mods.lock pins no mod, the examples of the modkit repository around the
// current directory or around the modhost executable.
func modDirs(flagValue string, locked bool) ([]string, error) {
	v := flagValue
	if v == "" {
		v = os.Getenv("MODHOST_MODS")
	}
	if v != "" {
		var dirs []string
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d != "" {
				dirs = append(dirs, d)
			}
		}
		return dirs, nil
	}
	if locked {
		return nil, nil
	}
	var looked []string
	for _, start := range searchStarts() {
		looked = append(looked, start)
		root := repoRoot(start)
		if root == "" {
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(root, "examples", "*", "mod.manifest.json"))
		sort.Strings(matches)
		var dirs []string
		for _, m := range matches {
			dirs = append(dirs, filepath.Dir(m))
		}
		if len(dirs) > 0 {
			return dirs, nil
		}
	}
	return nil, fmt.Errorf("no mods: without --mods, modhost serves the examples of the modkit repository "+
		"that holds the current directory or the modhost executable, and found none in %s or their parents; "+
		"pass --mods DIR[,DIR...] with absolute paths (MCP clients start modhost in a directory of their own), "+
		"or set MODHOST_MODS", strings.Join(looked, " or "))
}

// searchStarts returns where to look for the modkit repository: the
// current directory and the directory of the modhost executable.
func searchStarts() []string {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err := filepath.EvalSymlinks(exe); err == nil && !slices.Contains(starts, filepath.Dir(exe)) {
			starts = append(starts, filepath.Dir(exe))
		}
	}
	return starts
}

// repoRoot walks up from dir to the go.mod of the modkit module, or
// returns "".
func repoRoot(d string) string {
	for {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if strings.TrimSpace(line) == "module github.com/modkit/modkit" {
					return d
				}
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// load loads the mods with the CLI's options: builds report on stderr, and
// logs go there too when $MODHOST_LOG asks.
func (e *env) load() (*host.Host, error) {
	opts := &host.Options{Progress: e.stderr, CacheDir: os.Getenv("MODKIT_CACHE"), Installed: e.installed,
		AllowUnconfined: e.allowUnconfined, RequireConfinement: e.requireConfinement}
	if lv := os.Getenv("MODHOST_LOG"); lv != "" || e.logFormat == "json" {
		var level slog.Level
		if lv != "" {
			if err := level.UnmarshalText([]byte(lv)); err != nil {
				return nil, fmt.Errorf("MODHOST_LOG: %v", err)
			}
		}
		opts.Logger = slog.New(e.logHandler(level))
	}
	h, err := host.Load(e.mods, opts)
	if err == nil && opts.Logger == nil && !e.requireConfinement {
		// The host logs it, to a logger that discards: say it here, once.
		if why := h.Unconfined(); why != nil {
			e.noticeOnce.Do(func() {
				who := "mods from your own sources"
				if e.allowUnconfined {
					who = "mods" // installed ones too
				}
				fmt.Fprintf(e.stderr, "modhost: %s run with the confinement this machine offers; %v (modhost sandbox shows each limit)\n", who, why)
			})
		}
	}
	return h, err
}

func (e *env) session(id string) sdk.Session {
	if id == "" {
		id = "modhost"
	}
	return sdk.Session{ID: id, Workspace: e.workspace}
}

// fail prints an error and returns its exit code; a request for help
// prints the command's help and succeeds.
func (e *env) fail(err error) int {
	var help *helpRequest
	if errors.As(err, &help) {
		writeCommandHelp(e.stdout, help.fs)
		return exitOK
	}
	fmt.Fprintf(e.stderr, "modhost: %v\n", err)
	var ue *usageError
	if errors.As(err, &ue) || errors.Is(err, host.ErrUnknownTool) || errors.Is(err, host.ErrUnknownAgent) ||
		errors.Is(err, host.ErrUnknownCommand) || errors.Is(err, host.ErrNotAllowed) {
		return exitUsage
	}
	return exitFailed
}

// parseFlags parses a subcommand's flags, which come before its first
// argument; -h or --help among them returns a *helpRequest.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return &helpRequest{fs: fs}
		}
		return usagef("%s: %v", fs.Name(), err)
	}
	return nil
}

// missingScopes returns the scopes of need that granted, the local
// user's (--scopes), lacks; nil granted holds every scope.
func missingScopes(granted, need []string) []string {
	return mcpbridge.MissingScopes(granted, need)
}

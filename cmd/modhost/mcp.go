package main

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpbridge"
	"github.com/modkit/modkit/internal/modgen/build"
	"github.com/modkit/modkit/internal/ratelimit"
	"github.com/modkit/modkit/internal/rawsock"
	"github.com/modkit/modkit/internal/taskstore"
	"github.com/modkit/modkit/internal/telemetry"
	"github.com/modkit/modkit/manifest"
)

// runMCP serves the loaded mods' tools over the Model Context Protocol: on
// stdin and stdout, or with --http ADDR over streamable HTTP at
// http://ADDR/mcp. On stdio it serves until the client closes stdin and the
// calls read are answered; either way until an interrupt or SIGTERM, which
// cancels the calls in flight.
func runMCP(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	addr := fs.String("http", "", "serve streamable HTTP on `host:port` instead of stdio; the host defaults to 127.0.0.1")
	sessionTimeout := fs.Duration("session-timeout", mcpbridge.DefaultSessionTimeout, "with --http, close a session idle this long with no event stream open")
	maxSessions := fs.Int("max-sessions", mcpbridge.DefaultMaxSessions, "with --http, refuse new sessions past this many live ones")
	stateKeyFile := fs.String("state-key-file", "", "seal the request states of tools that ask questions with the 32 random bytes in `FILE`, shared by every replica of one URL (default: a fresh key per process)")
	stateTTL := fs.Duration("state-ttl", mcpbridge.DefaultStateTTL, "how long a request state of a tool's question stays valid")
	storeSpec := fs.String("store", "memory", "keep tasks in `STORE`: memory (this process), or redis://HOST:PORT/DB, shared by every replica of one URL")
	taskTTL := fs.Duration("task-ttl", mcpbridge.DefaultTaskTTL, "how long a task and its result are kept")
	taskLease := fs.Duration("task-lease", mcpbridge.DefaultTaskLease, "how long a task stays working after its replica last renewed its claim: a killed replica's tasks fail after this long")
	taskMaxLive := fs.Int("task-max-live", mcpbridge.DefaultTaskMaxLive, "how many live tasks (working, or waiting for answers) one client may have on this replica: one more is refused (a client is the token's subject with --auth-issuer, every caller together without)")
	taskMaxBytes := fs.Int64("task-max-bytes", mcpbridge.DefaultTaskMaxBytes, "how many `bytes` one client's tasks on this replica may keep (inputs, results): the oldest ended tasks are evicted to make room")
	drain := fs.Duration("drain", 30*time.Second, "with --http, on SIGTERM how long requests and tasks in flight have to finish")
	storeGrace := fs.Duration("store-grace", 30*time.Second, "with --http, how long the task store may not answer before /readyz turns 503 (0: never; task calls fail meanwhile)")
	authIssuer := fs.String("auth-issuer", "", "with --http, serve only requests with an OAuth access token of the authorization server whose issuer is `URL` (found by its RFC 8414 or OpenID metadata)")
	resource := fs.String("resource", "", "with --auth-issuer, this server's canonical `URL` (https://HOST/mcp): a token's audience must name it")
	authClaims := fs.String("auth-claims", "", "with --auth-issuer, pass these access token claims, comma-separated (`email,groups`), on to tool handlers (sdk.ToolContext.Caller), beside the subject, client id and scopes they always get; never the token")
	introspection := fs.String("auth-introspection", "", "with --auth-issuer, accept opaque access tokens too, checked by the authorization server's introspection endpoint at `URL` (RFC 7662), as --auth-client-file's client")
	clientFile := fs.String("auth-client-file", "", "with --auth-introspection, this server's client credentials at the authorization server: `FILE` holds {\"client_id\": \"…\", \"client_secret\": \"…\"}")
	auditing := addAuditFlags(fs)
	rateLimit := fs.String("rate-limit", "", "with --http, let each caller (an access token's subject, else an IP address) send at most `N/s` requests a second, in bursts of N; shared by replicas through a Redis --store")
	watch := fs.Bool("watch", true, "follow the mods: serve an edit of a --mods source, or a change of mods.lock, without a restart (a build that fails keeps the old version serving)")
	var icons []manifest.Icon
	fs.Func("icon", "stand for the server in clients (serverInfo's icons) with the image of `FILE-OR-URL`: an https URL, or a PNG, SVG, JPEG or WebP file of at most 64 KiB, embedded; repeat for more (default: none)", func(s string) error {
		ic, err := serverIcon(s)
		icons = append(icons, ic)
		return err
	})
	metricsAddr := fs.String("metrics-addr", "", "serve metrics in Prometheus text format at http://`host:port`/metrics (with --http they are also at /metrics there)")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() > 0 {
		return e.fail(usagef("mcp: unexpected argument %q", fs.Arg(0)))
	}
	if *sessionTimeout <= 0 || *maxSessions <= 0 || *stateTTL <= 0 || *taskTTL <= 0 || *taskLease <= 0 || *taskMaxLive <= 0 || *taskMaxBytes <= 0 || *drain < 0 || *storeGrace < 0 {
		return e.fail(usagef("mcp: --session-timeout, --max-sessions, --state-ttl, --task-ttl, --task-lease, --task-max-live and --task-max-bytes must be positive, --drain and --store-grace not negative"))
	}
	if (*authIssuer == "") != (*resource == "") {
		return e.fail(usagef("mcp: --auth-issuer and --resource go together"))
	}
	if *authClaims != "" && *authIssuer == "" {
		return e.fail(usagef("mcp: --auth-claims needs --auth-issuer: without tokens there are no claims to pass on"))
	}
	if *authIssuer != "" && *addr == "" {
		return e.fail(usagef("mcp: --auth-issuer needs --http: over stdio the client is the local user"))
	}
	if *introspection != "" && *authIssuer == "" {
		return e.fail(usagef("mcp: --auth-introspection needs --auth-issuer, the authorization server whose tokens it checks"))
	}
	if (*introspection == "") != (*clientFile == "") {
		return e.fail(usagef("mcp: --auth-introspection and --auth-client-file go together"))
	}
	var introspect *mcpauth.Introspection
	if *clientFile != "" {
		in, err := mcpauth.ReadClientCredentials(*clientFile)
		if err != nil {
			return e.fail(usagef("mcp: --auth-client-file: %v", err))
		}
		in.URL = *introspection
		introspect = in
	}
	var rate int
	if *rateLimit != "" {
		if *addr == "" {
			return e.fail(usagef("mcp: --rate-limit needs --http: over stdio the one client is the local user"))
		}
		r, err := ratelimit.ParseRate(*rateLimit)
		if err != nil {
			return e.fail(usagef("mcp: --rate-limit: %v", err))
		}
		rate = r
	}
	stdoutUse := ""
	if *addr == "" {
		stdoutUse = "MCP over stdio"
	}
	auditLog, err := auditing.open(e, "mcp", stdoutUse)
	if err != nil {
		return e.fail(err)
	}
	defer auditLog.Close()
	store, err := taskstore.Open(*storeSpec)
	if err != nil {
		return e.fail(usagef("mcp: --store: %v", err))
	}
	defer store.Close()
	limiter, err := rateLimiter(*storeSpec, rate, slog.New(e.logHandler(slog.LevelInfo)))
	if err != nil {
		return e.fail(usagef("mcp: --rate-limit: %v", err))
	}
	if c, ok := limiter.(io.Closer); ok {
		defer c.Close()
	}
	store = telemetry.TimedStore(store, storeKind(*storeSpec))
	var stateKey []byte
	if *stateKeyFile != "" {
		if stateKey, err = readStateKey(*stateKeyFile); err != nil {
			return e.fail(usagef("mcp: --state-key-file: %v", err))
		}
	}
	tel, stopTelemetry, err := e.startTelemetry(ctx, *addr != "" || *metricsAddr != "", nil)
	if err != nil {
		return e.fail(fmt.Errorf("mcp: %w", err))
	}
	defer stopTelemetry()
	h, err := e.load()
	if err != nil {
		return e.fail(err)
	}
	live := host.NewLive(h)
	defer live.Close()
	var auth *mcpauth.Resource
	if *authIssuer != "" {
		tools, err := h.Tools(e.agent)
		if err != nil {
			return e.fail(err)
		}
		var claims []string
		if *authClaims != "" {
			claims = strings.Split(*authClaims, ",")
		}
		auth, err = mcpauth.New(ctx, &mcpauth.Options{Issuer: *authIssuer, Resource: *resource, Scopes: mcpbridge.Scopes(tools, h), Introspection: introspect, Claims: claims})
		if err != nil {
			return e.fail(fmt.Errorf("mcp: %w", err))
		}
	}
	if *metricsAddr != "" {
		if err := e.serveMetrics(ctx, *metricsAddr, tel); err != nil {
			return e.fail(usagef("mcp: %v", err))
		}
	}
	srv, err := mcpbridge.NewServer(live, &mcpbridge.Options{Agent: e.agent, Workspace: e.workspace, Version: buildVersion(),
		Icons: icons, StateKey: stateKey, StateTTL: *stateTTL, TaskStore: store, TaskTTL: *taskTTL, TaskLease: *taskLease,
		TaskMaxLive: *taskMaxLive, TaskMaxBytes: *taskMaxBytes, Scopes: e.scopes, Audit: auditLog})
	if err != nil {
		return e.fail(err)
	}
	if os.Getenv("GOGC") == "" {
		// The SDK decodes every JSON value with a fresh decoder and buffer, so
		// a busy session collects garbage often, and each collection scans
		// the host's heap too. The heap is a few megabytes: trading some of
		// it for fewer collections takes about 7% off a trivial call.
		debug.SetGCPercent(400)
	}
	// An ending signal (interrupt, SIGTERM, SIGHUP, SIGQUIT) cancels the
	// calls in flight and ends the server; the deferred Close then stops
	// the mods.
	ctx, stop := signal.NotifyContext(ctx, endingSignals...)
	defer stop()
	// A client that went away breaks stdout: the write fails with EPIPE
	// rather than killing modhost before it stops the mods.
	sigpipe := make(chan os.Signal, 1)
	signal.Notify(sigpipe, syscall.SIGPIPE)
	defer signal.Stop(sigpipe)
	if *watch {
		e.followMods(ctx, live, watchInterval, func(next *host.Host) error {
			return srv.Reload(next, func() error { _, err := live.Swap(next); return err })
		})
	}
	if *addr == "" {
		defer oneProcForStdio()()
		err = srv.ServeStdio(ctx, e.stdin, e.stdout, nil)
	} else {
		err = serveHTTP(ctx, srv, *addr, e.stderr, &mcpbridge.HTTPOptions{
			SessionTimeout: *sessionTimeout, MaxSessions: *maxSessions, Auth: auth, RateLimit: limiter,
		}, &serveOptions{drain: *drain, storeGrace: *storeGrace, ready: func() error { return modsReady(live.Host(), e.requireConfinement) }}, tel.MetricsHandler())
	}
	if err != nil {
		return e.fail(fmt.Errorf("mcp: %w", err))
	}
	return exitOK
}

// serverIcon is the icon --icon names: an https URL as it is, or a file's
// image embedded as a data: URI.
func serverIcon(s string) (manifest.Icon, error) {
	if strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://") {
		if msg := manifest.CheckIconURL(s); msg != "" {
			return manifest.Icon{}, errors.New(msg)
		}
		return manifest.Icon{Src: s}, nil
	}
	return build.FileIcon(s)
}

// rateLimiter returns the limiter of rate requests a second per caller,
// in the Redis of the task store when it is one; nil for a rate of 0.
func rateLimiter(storeSpec string, rate int, logger *slog.Logger) (ratelimit.Limiter, error) {
	switch {
	case rate == 0:
		return nil, nil
	case strings.HasPrefix(storeSpec, "redis://") || strings.HasPrefix(storeSpec, "rediss://"):
		return ratelimit.NewRedis(storeSpec, rate, logger)
	}
	return ratelimit.NewMemory(rate, nil), nil
}

// modsReady says why h's mods cannot serve: one that did not load, or
// whose generated files are stale, or, when the host requires full
// confinement, a machine that does not enforce every limit.
func modsReady(h *host.Host, requireConfinement bool) error {
	if why := h.Unconfined(); why != nil && requireConfinement {
		return fmt.Errorf("%w: %v (--require-confinement)", host.ErrUnconfined, why)
	}
	if bad := h.Unavailable(); len(bad) > 0 {
		return fmt.Errorf("mod %s is unavailable: %s", bad[0].Dir, bad[0].Reason)
	}
	return nil
}

// readStateKey reads a state key: a file of exactly 32 bytes (head -c 32
// /dev/urandom), or of their 64 hex digits or base64, with or without a
// final newline.
func readStateKey(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if len(data) == mcpbridge.StateKeySize {
		return data, nil
	}
	text := strings.TrimSpace(string(data))
	if b, err := hex.DecodeString(text); err == nil && len(b) == mcpbridge.StateKeySize {
		return b, nil
	}
	if b, err := base64.StdEncoding.DecodeString(text); err == nil && len(b) == mcpbridge.StateKeySize {
		return b, nil
	}
	return nil, fmt.Errorf("%s holds %d bytes: want %d random bytes (head -c %d /dev/urandom > %s), or their hex or base64",
		name, len(data), mcpbridge.StateKeySize, mcpbridge.StateKeySize, name)
}

// buildVersion is modhost's version from its build info: the module
// version (a release, or the pseudo-version Go stamps from the checkout's
// commit), else "devel" with the commit when the build recorded one.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	v := "devel+" + rev[:min(len(rev), 12)]
	if dirty {
		v += ".dirty"
	}
	return v
}

// serveOptions configure serveHTTP.
type serveOptions struct {
	// drain is how long requests and tasks in flight have to finish once
	// ctx is done.
	drain time.Duration
	// storeGrace is how long the task store may not answer before the
	// replica reports itself unready; 0 for never.
	storeGrace time.Duration
	// ready, when set, says why the replica cannot serve, or nil.
	ready func() error
}

// serveHTTP serves streamable HTTP on addr until ctx is done. It prints the
// endpoint's URL on stderr once it listens, so that ":0" can be used.
// GET /healthz answers 200 while the process serves; GET /readyz answers
// 200 when the replica takes requests (its mods load, its task store has
// answered within so.storeGrace, it is not draining) and 503 saying why
// not. When ctx is done,
// the replica drains: /readyz turns 503, new requests are refused with
// 503, and those in flight and the tasks running have so.drain to finish.
// metrics, when set, is served at /metrics.
func serveHTTP(ctx context.Context, srv *mcpbridge.Server, addr string, stderr io.Writer, opts *mcpbridge.HTTPOptions, so *serveOptions, metrics http.Handler) error {
	ln, err := net.Listen("tcp", mcpbridge.ListenAddr(addr))
	if err != nil {
		return err
	}
	ln = rawsock.Listener(ln) // no wake of the runtime's monitor per request
	mux := http.NewServeMux()
	handler := srv.NewHTTPHandler(opts)
	mux.Handle(mcpbridge.HTTPPath, handler)
	if opts != nil && opts.Auth != nil {
		for _, p := range opts.Auth.MetadataPaths() {
			mux.Handle("GET "+p, opts.Auth.MetadataHandler())
		}
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, req *http.Request) {
		err := handler.Ready(req.Context())
		if err == nil && so != nil && so.ready != nil {
			err = so.ready()
		}
		if err != nil {
			http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		// A task store that does not answer fails task calls only: the
		// replica stays ready for plain calls, and says so, for a restart
		// or a failover of the store; past the grace, it is unready.
		if err := handler.StoreReachable(req.Context()); err != nil {
			if down := handler.StoreUnreachableFor(); so != nil && so.storeGrace > 0 && down > so.storeGrace {
				http.Error(w, fmt.Sprintf("not ready: the task store has not answered for %s: %v", down.Round(time.Second), err), http.StatusServiceUnavailable)
				return
			}
			io.WriteString(w, "ready; tasks unavailable: "+err.Error()+"\n")
			return
		}
		io.WriteString(w, "ready\n")
	})
	if metrics != nil {
		mux.Handle("GET "+MetricsPath, metrics)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "modhost: serving MCP at http://%s%s\n", ln.Addr(), mcpbridge.HTTPPath)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	if so != nil && so.drain > 0 {
		fmt.Fprintf(stderr, "modhost: draining for up to %s\n", so.drain)
		dctx, cancel := context.WithTimeout(context.Background(), so.drain)
		handler.Drain(dctx)
		cancel()
	}
	// Cancel the calls and close the sessions, which ends their event
	// streams; give the requests a moment to finish, then close what is
	// left.
	handler.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	return nil
}

// storeKind names the kind of task store spec names, for its metric.
func storeKind(spec string) string {
	if spec == "" || spec == "memory" {
		return "memory"
	}
	return "redis"
}

// oneProcForStdio runs the Go runtime on one P while modhost serves one
// client over stdio, unless $GOMAXPROCS says otherwise, and returns what
// undoes it. modhost relays each call to a mod, which runs in a process of
// its own and keeps the machine's GOMAXPROCS (set in the environment here,
// as the mods got it before). Every call hands the line read to the call's
// goroutine; with a second P idle, the runtime wakes a thread to take it,
// which finds it taken and sleeps again: two context switches and a
// spinning thread per call, on the cores the client and the mod need. With
// one P, the hand-off stays on the thread that read the line.
func oneProcForStdio() (restore func()) {
	if os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	os.Setenv("GOMAXPROCS", strconv.Itoa(runtime.GOMAXPROCS(0)))
	prev := runtime.GOMAXPROCS(1)
	return func() {
		runtime.GOMAXPROCS(prev)
		os.Unsetenv("GOMAXPROCS")
	}
}

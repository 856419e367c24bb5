package devserver

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// Options configure a Server.
type Options struct {
	// Token is the secret every request must carry; required.
	Token string
	// Addr is the address the server listens on, host:port; the Host
	// header must name it.
	Addr string
	// Session is the session calls, commands and views run in.
	Session sdk.Session
	// Agent is the agent the page acts as at first; "" means none.
	Agent string
	// Dirs are the mod directories, as given to Load.
	Dirs []string
	// Load loads the mods in Dirs afresh; live reload calls it.
	Load func() (*host.Host, error)
	// Files are more files Watch follows, such as mods.lock: a change of
	// one loads every mod afresh with Load.
	Files []string
	// Logger receives the server's errors; nil discards them.
	Logger *slog.Logger
	// Spans, when set, keeps the spans of the page's calls, which it shows
	// as each call's timeline; it must be a span processor of the
	// process's tracer provider.
	Spans *Spans
}

// Server is the inspector's HTTP handler. It is safe for concurrent use.
type Server struct {
	opts  Options
	hosts map[string]bool // Host header values accepted
	mux   *http.ServeMux

	mu      sync.Mutex
	live    *host.Live
	calls   map[string]*call
	order   []*call
	next    int
	builds  map[string]*buildError // mod directory -> its last failed reload
	subs    map[chan string]bool   // /api/events subscribers
	reloads int                    // reloads that replaced the host
	version int                    // events published so far
}

// buildError is why a mod's last reload failed.
type buildError struct {
	Dir string `json:"dir"`
	Mod string `json:"mod,omitempty"`
	// Stage is "generate", "load" or "build".
	Stage string `json:"stage"`
	// Problems are its messages, with file:line:col where they have one.
	Problems []string `json:"problems"`
}

// New returns a server for the mods h has loaded. The server owns h:
// [Server.Close] closes it, and a reload replaces it.
func New(h *host.Host, opts *Options) (*Server, error) {
	if opts == nil || opts.Token == "" {
		return nil, errors.New("devserver: a token is required")
	}
	s := &Server{opts: *opts, calls: map[string]*call{},
		builds: map[string]*buildError{}, subs: map[chan string]bool{}}
	if h != nil { // tests of the handler alone give none
		s.live = host.NewLive(h)
	}
	if s.opts.Logger == nil {
		s.opts.Logger = slog.New(slog.DiscardHandler)
	}
	hosts, err := allowedHosts(opts.Addr)
	if err != nil {
		return nil, err
	}
	s.hosts = hosts
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.index)
	mux.HandleFunc("GET /api/state", s.state)
	mux.HandleFunc("POST /api/check", s.check)
	mux.HandleFunc("POST /api/calls", s.startCall)
	mux.HandleFunc("GET /api/calls", s.listCalls)
	mux.HandleFunc("GET /api/calls/{id}", s.getCall)
	mux.HandleFunc("GET /api/calls/{id}/events", s.callEvents)
	mux.HandleFunc("GET /api/calls/{id}/spans", s.callSpans)
	mux.HandleFunc("POST /api/calls/{id}/cancel", s.cancelCall)
	mux.HandleFunc("POST /api/calls/{id}/approval", s.answerApproval)
	mux.HandleFunc("POST /api/calls/{id}/question", s.answerQuestion)
	mux.HandleFunc("POST /api/calls/{id}/view", s.view)
	mux.HandleFunc("POST /api/calls/{id}/answer", s.answerClient)
	mux.HandleFunc("GET /api/tools/{name}/mcp", s.mcpEntry)
	mux.HandleFunc("POST /api/command", s.command)
	mux.HandleFunc("POST /api/slash", s.slash)
	mux.HandleFunc("POST /api/prompt", s.prompt)
	mux.HandleFunc("POST /api/complete", s.complete)
	mux.HandleFunc("POST /api/read", s.read)
	mux.HandleFunc("GET /api/events", s.events)
	s.mux = mux
	return s, nil
}

// allowedHosts returns the Host header values that name addr with its
// port: addr itself; for a loopback address 127.0.0.1, [::1] and
// localhost too; for an unspecified one (0.0.0.0, ::) those and every
// address of the machine's interfaces. Never a DNS name but localhost.
func allowedHosts(addr string) (map[string]bool, error) {
	h, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("devserver: address %q: %v", addr, err)
	}
	out := map[string]bool{net.JoinHostPort(h, port): true}
	ip := net.ParseIP(h)
	if h == "localhost" || ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) {
		for _, name := range []string{"127.0.0.1", "::1", "localhost"} {
			out[net.JoinHostPort(name, port)] = true
		}
	}
	if ip != nil && ip.IsUnspecified() {
		addrs, _ := net.InterfaceAddrs()
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				out[net.JoinHostPort(n.IP.String(), port)] = true
			}
		}
	}
	return out, nil
}

// host returns the current host and marks a call on it begun; done ends
// it.
func (s *Server) host() (h *host.Host, done func()) { return s.live.Hold() }

// Close closes the hosts: the current one and those whose calls are
// finishing.
func (s *Server) Close() error {
	s.mu.Lock()
	for _, c := range s.order {
		c.cancel()
	}
	s.mu.Unlock()
	if s.live == nil {
		return nil
	}
	return s.live.Close()
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if !s.hosts[r.Host] {
		http.Error(w, "forbidden: the Host header does not name this server", http.StatusForbidden)
		return
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Scheme != "http" || u.Host != r.Host {
			http.Error(w, "forbidden: cross-origin request", http.StatusForbidden)
			return
		}
	}
	tok := r.Header.Get("X-Modhost-Token")
	if tok == "" {
		tok = r.URL.Query().Get("token")
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(s.opts.Token)) != 1 {
		http.Error(w, "forbidden: open the URL modhost dev printed, with its token", http.StatusForbidden)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// csp is the page's policy. Its script and style are inline, as are a
// view's, whose srcdoc frame inherits the policy and adds its own stricter
// one; the page itself inserts no markup it did not write. Images may be
// data: URIs or https URLs: the mods' icons.
const csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
	"img-src 'self' data: https:; media-src data:; connect-src 'self'; frame-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// stateJSON is what /api/state returns.
type stateJSON struct {
	Workspace string               `json:"workspace"`
	Agent     string               `json:"agent"`
	Mods      []*manifest.Manifest `json:"mods"`
	// Permissions are what each mod, by id, may do, one permission a
	// line, in the words of modhost inspect.
	Permissions map[string][]string `json:"permissions"`
	// Unconfined names the limits on mods this machine does not enforce,
	// and why; empty when the host confines mods fully.
	Unconfined string `json:"unconfined,omitempty"`
	// Views are the field trees of the mods' schemas, by mod id: the page
	// shows them as modhost inspect prints them.
	Views       map[string]modViews `json:"views"`
	Unavailable []unavailableJSON   `json:"unavailable"`
	Builds      []*buildError       `json:"builds"`
	Reloads     int                 `json:"reloads"`
	Calls       []*callSummary      `json:"calls"`
	// Version counts the events /api/events has published: a page whose
	// state is older than the stream's first event refetches it.
	Version int `json:"version"`
}

type unavailableJSON struct {
	Dir    string `json:"dir"`
	Mod    string `json:"mod,omitempty"`
	Reason string `json:"reason"`
	Error  string `json:"error"`
}

func (s *Server) state(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.snapshot())
}

// snapshot returns the state as the page sees it.
func (s *Server) snapshot() *stateJSON {
	h, done := s.host()
	defer done()
	mods := h.Mods()
	st := &stateJSON{Workspace: s.opts.Session.Workspace, Agent: s.opts.Agent, Mods: mods,
		Views: schemaViews(mods), Unavailable: []unavailableJSON{}, Builds: []*buildError{},
		Permissions: map[string][]string{}}
	for _, m := range mods {
		st.Permissions[m.ID] = m.Permissions.Lines()
	}
	if why := h.Unconfined(); why != nil {
		st.Unconfined = why.Error()
	}
	for _, e := range h.Unavailable() {
		st.Unavailable = append(st.Unavailable, unavailableJSON{Dir: e.Dir, Mod: e.Mod, Reason: e.Reason, Error: e.Error()})
	}
	s.mu.Lock()
	for _, d := range append(slices.Clone(s.opts.Dirs), s.opts.Files...) {
		if b := s.builds[d]; b != nil {
			st.Builds = append(st.Builds, b)
		}
	}
	st.Reloads, st.Version = s.reloads, s.version
	st.Calls = make([]*callSummary, 0, len(s.order))
	for _, c := range s.order {
		st.Calls = append(st.Calls, c.summary())
	}
	s.mu.Unlock()
	return st
}

type problemJSON struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// problems splits "/json/path: what is wrong" lines.
func problems(lines []string) []problemJSON {
	out := make([]problemJSON, 0, len(lines))
	for _, l := range lines {
		p, msg, ok := strings.Cut(l, ": ")
		if !ok || !strings.HasPrefix(p, "/") {
			p, msg = "", l
		}
		out = append(out, problemJSON{Path: p, Message: msg})
	}
	return out
}

func (s *Server) check(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Tool  string          `json:"tool"`
		Input json.RawMessage `json:"input"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	h, done := s.host()
	defer done()
	ps, err := h.Check(r.Context(), req.Tool, req.Input)
	if errors.Is(err, host.ErrUnknownTool) {
		writeError(w, http.StatusNotFound, err)
		return
	}
	if err != nil {
		writeError(w, http.StatusBadGateway, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"problems": problems(ps)})
}

func (s *Server) command(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID   string          `json:"id"`
		Args json.RawMessage `json:"args"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	h, done := s.host()
	defer done()
	msg, err := h.RunCommand(r.Context(), req.ID, req.Args, s.opts.Session)
	writeOutput(w, msg, err)
}

func (s *Server) slash(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID   string `json:"id"`
		Text string `json:"text"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	h, done := s.host()
	defer done()
	msg, err := h.RunSlashCommand(r.Context(), req.ID, req.Text, s.opts.Session)
	writeOutput(w, msg, err)
}

// writeOutput answers a command: its message, or why it did not run (a
// hook's refusal, its error), both with 200 so the page shows them alike;
// an unknown command is 404.
func writeOutput(w http.ResponseWriter, msg string, err error) {
	switch {
	case errors.Is(err, host.ErrUnknownCommand):
		writeError(w, http.StatusNotFound, err)
	case err != nil:
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "error": err.Error()})
	default:
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "output": msg})
	}
}

// events streams state changes: first "version", with the state's current
// version, then "state" when the mods or builds changed, "call" when a
// call started or ended.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := startSSE(w)
	if !ok {
		return
	}
	ch := make(chan string, 16)
	s.mu.Lock()
	s.subs[ch] = true
	version := s.version
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.subs, ch)
		s.mu.Unlock()
	}()
	fmt.Fprintf(w, ": hello\n\nevent: version\ndata: {\"version\":%d}\n\n", version)
	fl.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case ev := <-ch:
			fmt.Fprintf(w, "event: %s\ndata: {}\n\n", ev)
			fl.Flush()
		}
	}
}

// publish tells every /api/events subscriber; one that lags misses it,
// which is harmless as every event means "refetch". s.mu must be held.
func (s *Server) publish(ev string) {
	s.version++
	for ch := range s.subs {
		select {
		case ch <- ev:
		default:
		}
	}
}

func startSSE(w http.ResponseWriter) (http.Flusher, bool) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return nil, false
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	return fl, true
}

// maxBody bounds a request body; the host bounds inputs again by its own
// limit.
const maxBody = 8 << 20

func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		// A form post from another page cannot send this type without a
		// preflight, which the Origin check refuses.
		writeError(w, http.StatusUnsupportedMediaType, errors.New("want Content-Type: application/json"))
		return false
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, err)
		return false
	}
	if err := json.Unmarshal(data, v); err != nil {
		writeError(w, http.StatusBadRequest, fmt.Errorf("request body: %v", err))
		return false
	}
	return true
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, err error) {
	writeJSON(w, code, map[string]string{"error": err.Error()})
}

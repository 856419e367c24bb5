package modserver

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/sdkrt"
	"github.com/modkit/modkit/internal/uritemplate"
	"github.com/modkit/modkit/sdk"
)

var _ modapi.Features = (*Server)(nil)

// watchers are the host's WatchResources calls. A mod's ResourceUpdated
// never blocks: each watcher keeps the URIs not yet sent, once each, in
// the order they first changed. The host starts watching a mod's
// resources as it starts the mod, while it may already call a tool: until
// the first watcher comes, updates wait for it in held (up to maxHeld
// URIs), so that none made by a first call is lost.
type watchers struct {
	mu   sync.Mutex
	next int
	all  map[int]*watcher
	held *watcher // before the first watcher, the updates waiting for it
}

// maxHeld bounds the URIs kept for the first watcher.
const maxHeld = 256

type watcher struct {
	mu      sync.Mutex
	pending []string
	queued  map[string]bool
	wake    chan struct{} // 1-buffered
}

func newWatcher() *watcher {
	return &watcher{queued: map[string]bool{}, wake: make(chan struct{}, 1)}
}

func (w *watchers) add() (*watcher, func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	wt := w.held
	if wt == nil {
		wt = newWatcher()
	}
	w.held = nil
	if w.all == nil {
		w.all = map[int]*watcher{}
	}
	id := w.next
	w.next++
	w.all[id] = wt
	return wt, func() {
		w.mu.Lock()
		delete(w.all, id)
		w.mu.Unlock()
	}
}

func (w *watchers) notify(uri string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.next == 0 {
		if w.held == nil {
			w.held = newWatcher()
		}
		if len(w.held.pending) < maxHeld {
			w.held.queue(uri)
		}
		return
	}
	for _, wt := range w.all {
		wt.queue(uri)
	}
}

// queue adds uri to the pending URIs, unless it waits already, and wakes
// the watcher.
func (wt *watcher) queue(uri string) {
	wt.mu.Lock()
	if !wt.queued[uri] {
		wt.queued[uri] = true
		wt.pending = append(wt.pending, uri)
	}
	wt.mu.Unlock()
	select {
	case wt.wake <- struct{}{}:
	default:
	}
}

// take returns the pending URIs and forgets them.
func (wt *watcher) take() []string {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	out := wt.pending
	wt.pending, wt.queued = nil, map[string]bool{}
	return out
}

// env returns the Env a handler receives: its ResourceUpdated reaches the
// host's watchers.
func (s *Server) env(session sdk.Session, today string) *sdk.Env {
	env := &sdk.Env{Session: session, Today: today, Logger: s.log}
	sdkrt.SetEnvNotify(env, s.watch.notify)
	return env
}

// WatchResources implements modapi.Features.
func (s *Server) WatchResources(ctx context.Context, updated func(uri string)) error {
	// Updates go out one at a time, in order, on this goroutine.
	wt, remove := s.watch.add()
	defer remove()
	for {
		select {
		case <-wt.wake:
			for _, uri := range wt.take() {
				updated(uri)
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// ReadResource implements modapi.Features.
func (s *Server) ReadResource(ctx context.Context, req *modapi.ResourceRequest) (*modapi.ResourceResponse, error) {
	env := s.env(req.Session, req.Today)
	var read func() (sdk.ResourceContents, error)
	var what, mimeType string
	if req.Template == "" {
		r, ok := s.resource(req.URI)
		if !ok {
			return &modapi.ResourceResponse{NotFound: true}, nil
		}
		what, mimeType = "resource "+r.URI, r.MIMEType
		if r.Read != nil {
			read = func() (sdk.ResourceContents, error) { return r.Read(ctx, env, req.URI) }
		}
	} else {
		t, ok := s.template(req.Template)
		if !ok {
			return &modapi.ResourceResponse{Error: fmt.Sprintf("mod %s has no resource template %s", s.id, req.Template)}, nil
		}
		parsed, err := uritemplate.Parse(t.URITemplate)
		if err != nil {
			return &modapi.ResourceResponse{Error: fmt.Sprintf("mod %s: %v", s.id, err)}, nil
		}
		vars, ok := parsed.Match(req.URI)
		if !ok {
			return &modapi.ResourceResponse{NotFound: true}, nil
		}
		what, mimeType = "resource template "+t.URITemplate, t.MIMEType
		if t.Read != nil {
			read = func() (sdk.ResourceContents, error) { return t.Read(ctx, env, req.URI, vars) }
		}
	}
	if read == nil {
		return &modapi.ResourceResponse{Error: what + " has no handler in the mod"}, nil
	}
	var c sdk.ResourceContents
	s.track(req.CallID, 1)
	defer s.track(req.CallID, -1)
	err := s.recovered(what, "", func() error {
		var err error
		c, err = read()
		return err
	})
	switch {
	case errors.Is(err, sdk.ErrResourceNotFound):
		return &modapi.ResourceResponse{NotFound: true}, nil
	case err != nil:
		return &modapi.ResourceResponse{Error: err.Error()}, nil
	case c.Text != "" && len(c.Blob) > 0:
		return &modapi.ResourceResponse{Error: what + " returned both text and a blob"}, nil
	}
	if c.MIMEType == "" {
		c.MIMEType = mimeType
	}
	if e := modapi.OverLimit(what, modapi.ContentsSize(c), req.MaxResultBytes); e != "" {
		return &modapi.ResourceResponse{Error: e}, nil
	}
	return &modapi.ResourceResponse{URI: req.URI, Contents: c}, nil
}

// GetPrompt implements modapi.Features: Prompt with the arguments, or Run
// with their values joined, whose message is one user message.
func (s *Server) GetPrompt(ctx context.Context, req *modapi.PromptRequest) (*modapi.PromptResponse, error) {
	c, ok := s.slash(req.ID)
	if !ok {
		return &modapi.PromptResponse{Error: fmt.Sprintf("mod %s has no slash command %s", s.id, req.ID)}, nil
	}
	what := "prompt " + c.ID
	env := s.env(req.Session, req.Today)
	ask := newAsking(req.Answers, req.CanAsk)
	sdkrt.SetEnvAsk(env, ask)
	s.track(req.CallID, 1)
	defer s.track(req.CallID, -1)
	var msgs []sdk.PromptMessage
	err := s.recovered(what, "", func() error {
		switch {
		case c.Prompt != nil:
			var err error
			msgs, err = c.Prompt(ctx, env, req.Arguments)
			return err
		case c.Run != nil:
			names := make([]string, len(c.Arguments))
			for i, a := range c.Arguments {
				names[i] = a.Name
			}
			msg, err := c.Run(ctx, env, modapi.JoinArgs(names, req.Arguments))
			msgs = []sdk.PromptMessage{sdk.UserText(msg)}
			return err
		}
		return errors.New(what + " has no handler in the mod")
	})
	if pending := ask.questions(); pending != nil && ctx.Err() == nil {
		// Whatever the run returned: it cannot go on without the answers.
		return &modapi.PromptResponse{Questions: pending}, nil
	}
	if err != nil {
		o := ask.failed(err)
		return &modapi.PromptResponse{Error: err.Error(), Unasked: o.Unasked}, nil
	}
	if e := modapi.CheckMessages(what, msgs); e != "" {
		return &modapi.PromptResponse{Error: e}, nil
	}
	if e := modapi.OverLimit(what, modapi.PromptSize(msgs), req.MaxResultBytes); e != "" {
		return &modapi.PromptResponse{Error: e}, nil
	}
	return &modapi.PromptResponse{Messages: msgs}, nil
}

// Complete implements modapi.Features. A slash command or template with no
// Complete suggests nothing.
func (s *Server) Complete(ctx context.Context, req *modapi.CompleteRequest) (*modapi.CompleteResponse, error) {
	var complete func(context.Context, *sdk.Env, sdk.CompletionRequest) (sdk.Completion, error)
	var what string
	if req.Prompt != "" {
		c, ok := s.slash(req.Prompt)
		if !ok {
			return &modapi.CompleteResponse{Error: fmt.Sprintf("mod %s has no slash command %s", s.id, req.Prompt)}, nil
		}
		complete, what = c.Complete, "completion of prompt "+c.ID
	} else {
		t, ok := s.template(req.Template)
		if !ok {
			return &modapi.CompleteResponse{Error: fmt.Sprintf("mod %s has no resource template %s", s.id, req.Template)}, nil
		}
		complete, what = t.Complete, "completion of resource template "+t.URITemplate
	}
	if complete == nil {
		return &modapi.CompleteResponse{}, nil
	}
	env := s.env(req.Session, req.Today)
	s.track(req.CallID, 1)
	defer s.track(req.CallID, -1)
	var c sdk.Completion
	err := s.recovered(what, "", func() error {
		var err error
		c, err = complete(ctx, env, req.CompletionRequest)
		return err
	})
	if err != nil {
		return &modapi.CompleteResponse{Error: err.Error()}, nil
	}
	return &modapi.CompleteResponse{Completion: modapi.CapCompletion(c)}, nil
}

func (s *Server) resource(uri string) (sdk.Resource, bool) {
	for _, r := range s.g.Mod.Resources {
		if r.URI == uri {
			return r, true
		}
	}
	return sdk.Resource{}, false
}

func (s *Server) template(tmpl string) (sdk.ResourceTemplate, bool) {
	for _, t := range s.g.Mod.ResourceTemplates {
		if t.URITemplate == tmpl {
			return t, true
		}
	}
	return sdk.ResourceTemplate{}, false
}

// slashRun runs a slash command for a person: Run with the text, or, for
// a command with only Prompt, the prompt of the arguments the text holds,
// as text.
func (s *Server) slashRun(ctx context.Context, env *sdk.Env, c sdk.SlashCommand, text string) (string, error) {
	if c.Run != nil {
		return c.Run(ctx, env, modapi.SlashText(text))
	}
	names := make([]string, len(c.Arguments))
	required := make([]bool, len(c.Arguments))
	for i, a := range c.Arguments {
		names[i], required[i] = a.Name, a.Required
	}
	args, err := modapi.SlashArgs(c.ID, names, required, text)
	if err != nil {
		return "", err
	}
	msgs, err := c.Prompt(ctx, env, args)
	if err != nil {
		return "", err
	}
	if e := modapi.CheckMessages("slash command /"+c.ID, msgs); e != "" {
		return "", errors.New(e)
	}
	return modapi.PromptText(msgs), nil
}

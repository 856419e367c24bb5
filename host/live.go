package host

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// Live serves from one Host at a time and replaces it while serving: a
// server that follows its mods' sources loads them afresh ([Live.Prepare])
// and swaps the new host in ([Live.Swap]). The calls under way at a swap
// finish on the host they began on, which closes once the last of them
// has ended; every call after goes to the new host. Live has the methods
// of Host a front end serves from, each run on the host of the moment.
// It is safe for concurrent use.
type Live struct {
	mu  sync.Mutex
	cur *generation
	// all are the generations not yet closed: the current one and those
	// whose calls are finishing.
	all    map[*generation]bool
	closed bool
	// listeners are OnResourceUpdated's functions, called for the updates
	// of every generation's mods.
	listeners map[int]func(ResourceUpdate)
	next      int
}

// generation is one host a Live serves from, and its calls under way.
type generation struct {
	h     *Host
	calls sync.WaitGroup
	// unlisten removes the host's resource update listener.
	unlisten func()
}

// NewLive returns a Live serving from h, which it owns from then on:
// [Live.Close] closes it.
func NewLive(h *Host) *Live {
	l := &Live{all: map[*generation]bool{}, listeners: map[int]func(ResourceUpdate){}}
	l.cur = l.adopt(h)
	return l
}

// adopt makes h a generation whose resource updates reach l's listeners.
func (l *Live) adopt(h *Host) *generation {
	g := &generation{h: h}
	g.unlisten = h.OnResourceUpdated(func(u ResourceUpdate) {
		l.mu.Lock()
		fns := make([]func(ResourceUpdate), 0, len(l.listeners))
		for _, fn := range l.listeners {
			fns = append(fns, fn)
		}
		l.mu.Unlock()
		for _, fn := range fns {
			fn(u)
		}
	})
	l.all[g] = true
	return g
}

// Host returns the host serving now. Calls made on it directly are not
// counted: a swap may close it under them. Use it to list, not to call.
func (l *Live) Host() *Host {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cur.h
}

// Hold returns the host serving now and keeps it open, through any swap,
// until release is called: for work of several steps on one host (a call
// and the view of its result). Each Hold needs its release.
func (l *Live) Hold() (h *Host, release func()) {
	l.mu.Lock()
	g := l.cur
	g.calls.Add(1)
	l.mu.Unlock()
	return g.h, g.calls.Done
}

// Prepare loads the mods afresh with load, and builds and starts those
// in the directories changed (as given to Load), so that a broken edit is
// found before it serves. It returns the new host, not yet serving, or
// why a changed mod cannot serve: it does not load, its generated files
// are out of date, or it does not build or start; the old host serves
// on. A directory the new host was not given (a mod removed) is skipped.
func (l *Live) Prepare(ctx context.Context, load func() (*Host, error), changed []string) (*Host, error) {
	next, err := load()
	if err != nil {
		return nil, err
	}
	abs := func(dir string) string {
		if a, err := filepath.Abs(dir); err == nil {
			return a
		}
		return dir
	}
	dirs := map[string]bool{}
	for _, d := range changed {
		dirs[abs(d)] = true
	}
	isChanged := func(dir string) bool { return dirs[abs(dir)] }
	var errs []error
	for _, e := range next.Unavailable() {
		if isChanged(e.Dir) {
			errs = append(errs, e)
		}
	}
	if len(errs) == 0 {
		for _, m := range next.mods {
			if isChanged(m.given) {
				if err := next.Start(ctx, m.man.ID); err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	if len(errs) > 0 {
		next.Close()
		return nil, errors.Join(errs...)
	}
	return next, nil
}

// Swap makes next serve every call from now on. The host it replaces
// closes once its calls under way have ended; done is closed then.
func (l *Live) Swap(next *Host) (done <-chan struct{}, err error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		next.Close()
		return nil, fmt.Errorf("swap: %w", ErrClosed)
	}
	old := l.cur
	l.cur = l.adopt(next)
	l.mu.Unlock()
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		old.calls.Wait()
		l.retire(old)
	}()
	return ch, nil
}

// retire closes g's host, unless Close did.
func (l *Live) retire(g *generation) {
	l.mu.Lock()
	mine := l.all[g]
	delete(l.all, g)
	l.mu.Unlock()
	if mine {
		g.unlisten()
		g.h.Close()
	}
}

// Close closes every host: the current one and those whose calls are
// finishing, which fail saying the host closed.
func (l *Live) Close() error {
	l.mu.Lock()
	l.closed = true
	gens := make([]*generation, 0, len(l.all))
	for g := range l.all {
		gens = append(gens, g)
	}
	l.mu.Unlock()
	for _, g := range gens {
		l.retire(g)
	}
	return nil
}

// Tools is [Host.Tools] of the host serving now.
func (l *Live) Tools(agent string) ([]Tool, error) { return l.Host().Tools(agent) }

// Mods is [Host.Mods] of the host serving now.
func (l *Live) Mods() []*manifest.Manifest { return l.Host().Mods() }

// Resources is [Host.Resources] of the host serving now.
func (l *Live) Resources() []Resource { return l.Host().Resources() }

// ResourceTemplates is [Host.ResourceTemplates] of the host serving now.
func (l *Live) ResourceTemplates() []ResourceTemplate { return l.Host().ResourceTemplates() }

// Prompts is [Host.Prompts] of the host serving now.
func (l *Live) Prompts() []Prompt { return l.Host().Prompts() }

// Unavailable is [Host.Unavailable] of the host serving now.
func (l *Live) Unavailable() []*ModError { return l.Host().Unavailable() }

// Call is [Host.Call] on the host serving now, which serves it to its end.
func (l *Live) Call(ctx context.Context, req *CallRequest) (*CallResult, error) {
	h, release := l.Hold()
	defer release()
	return h.Call(ctx, req)
}

// RenderView is [Host.RenderView] on the host serving now.
func (l *Live) RenderView(ctx context.Context, tool string, state sdk.RawViewState) (string, error) {
	h, release := l.Hold()
	defer release()
	return h.RenderView(ctx, tool, state)
}

// ReadResource is [Host.ReadResource] on the host serving now.
func (l *Live) ReadResource(ctx context.Context, uri string, session sdk.Session) (*ResourceResult, error) {
	h, release := l.Hold()
	defer release()
	return h.ReadResource(ctx, uri, session)
}

// SubscribeResource is [Host.SubscribeResource] on the host serving now.
func (l *Live) SubscribeResource(ctx context.Context, uri string) error {
	h, release := l.Hold()
	defer release()
	return h.SubscribeResource(ctx, uri)
}

// GetPromptAsking is [Host.GetPromptAsking] on the host serving now.
func (l *Live) GetPromptAsking(ctx context.Context, req *PromptRequest) (*PromptResult, error) {
	h, release := l.Hold()
	defer release()
	return h.GetPromptAsking(ctx, req)
}

// Complete is [Host.Complete] on the host serving now.
func (l *Live) Complete(ctx context.Context, req *CompleteRequest) (sdk.Completion, error) {
	h, release := l.Hold()
	defer release()
	return h.Complete(ctx, req)
}

// OnResourceUpdated calls fn with each resource update of the mods of
// every host Live serves from, until remove is called.
func (l *Live) OnResourceUpdated(fn func(ResourceUpdate)) (remove func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	id := l.next
	l.next++
	l.listeners[id] = fn
	return func() {
		l.mu.Lock()
		delete(l.listeners, id)
		l.mu.Unlock()
	}
}

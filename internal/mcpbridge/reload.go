package mcpbridge

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
)

// A server's lists live: when its backend changes its mods (a host.Live
// swapping in a host loaded afresh), Reload registers the tools, prompts,
// resources and templates again, removes those gone, and the SDK sends
// each session notifications/tools/list_changed (prompts, resources
// likewise), which the capabilities announce. What NewServer decided
// once for the whole server (the views' pages, scopes, approval, tasks)
// does not change while serving: a change to a tool or prompt that has
// any of them needs a restart.

var _ FeatureBackend = (*host.Live)(nil)

// lists are a backend's tools, prompts, resources and templates.
type lists struct {
	tools     []host.Tool
	prompts   []host.Prompt
	resources []host.Resource
	templates []host.ResourceTemplate
}

// listsOf reads b's lists, as NewServer registers them.
func listsOf(b Backend, agent string) (*lists, error) {
	tools, err := b.Tools(agent)
	if err != nil {
		return nil, fmt.Errorf("mcp: list tools: %w", err)
	}
	l := &lists{tools: inMod(tools)}
	if fb, ok := b.(FeatureBackend); ok {
		l.prompts, l.resources, l.templates = fb.Prompts(), fb.Resources(), fb.ResourceTemplates()
	}
	return l, nil
}

// Reload serves next's lists from s: it checks that s can serve them
// live, calls swap, which makes s's backend serve next's mods, then
// registers what changed. When the check fails, swap is not called and s
// serves on as it was. Reloads of one server take turns.
func (s *Server) Reload(next Backend, swap func() error) error {
	s.reloading.Lock()
	defer s.reloading.Unlock()
	br := s.bridge
	old, err := listsOf(br.backend, br.opts.Agent)
	if err != nil {
		return err
	}
	now, err := listsOf(next, br.opts.Agent)
	if err != nil {
		return err
	}
	if err := liveChange(old, now); err != nil {
		return err
	}
	for _, name := range changedNames(old.tools, now.tools, toolName) {
		if t, ok := find(now.tools, name, toolName); ok {
			if _, _, err := mcpTool(t); err != nil {
				return err // as NewServer refuses it
			}
		}
	}
	if err := swap(); err != nil {
		return err
	}
	return br.register(s.mcp, s.direct, old, now)
}

// fixedAtStart reports whether a tool has what NewServer decides once:
// a view, scopes, approval, task support.
func fixedAtStart(t host.Tool) bool {
	return t.HasView || len(t.Scopes) > 0 || t.Approval != nil || t.Task != "" || t.Name == RenderViewTool
}

// liveChange says why srv cannot serve the change from old to now live,
// or nil.
func liveChange(old, now *lists) error {
	var fixed []string
	for _, name := range changedNames(old.tools, now.tools, func(t host.Tool) string { return t.Name }) {
		if t, ok := find(old.tools, name, toolName); ok && fixedAtStart(t) {
			fixed = append(fixed, "tool "+name)
		} else if t, ok := find(now.tools, name, toolName); ok && fixedAtStart(t) {
			fixed = append(fixed, "tool "+name)
		}
	}
	for _, name := range changedNames(old.prompts, now.prompts, func(p host.Prompt) string { return p.ID }) {
		if p, ok := find(old.prompts, name, promptID); ok && len(p.Scopes) > 0 {
			fixed = append(fixed, "prompt "+name)
		} else if p, ok := find(now.prompts, name, promptID); ok && len(p.Scopes) > 0 {
			fixed = append(fixed, "prompt "+name)
		}
	}
	if len(fixed) > 0 {
		return fmt.Errorf("mcp: reload: %s changed, and a view, scopes, approval or task support is served as it was at start: restart modhost to serve the change", strings.Join(fixed, ", "))
	}
	return nil
}

func toolName(t host.Tool) string        { return t.Name }
func promptID(p host.Prompt) string      { return p.ID }
func resourceURI(r host.Resource) string { return r.URI }
func templateURI(t host.ResourceTemplate) string {
	return t.URITemplate
}

// find returns the item of list named name.
func find[T any](list []T, name string, nameOf func(T) string) (T, bool) {
	i := slices.IndexFunc(list, func(x T) bool { return nameOf(x) == name })
	if i < 0 {
		var zero T
		return zero, false
	}
	return list[i], true
}

// changedNames returns the names of the items added, removed or changed
// from old to now.
func changedNames[T any](old, now []T, nameOf func(T) string) []string {
	var out []string
	for _, x := range now {
		if y, ok := find(old, nameOf(x), nameOf); !ok || !reflect.DeepEqual(x, y) {
			out = append(out, nameOf(x))
		}
	}
	for _, y := range old {
		if _, ok := find(now, nameOf(y), nameOf); !ok {
			out = append(out, nameOf(y))
		}
	}
	return out
}

// register registers on srv (and its direct path, if any) what changed from old to now: liveChange
// allowed it, and every changed tool converts (mcpTool).
func (br *bridge) register(srv *mcp.Server, direct *directCalls, old, now *lists) error {
	var gone []string
	for _, name := range changedNames(old.tools, now.tools, toolName) {
		t, ok := find(now.tools, name, toolName)
		if !ok {
			gone = append(gone, name)
			continue
		}
		mt, wrapped, err := mcpTool(t)
		if err != nil {
			return err
		}
		handler := br.callHandler(t, wrapped)
		srv.AddTool(mt, handler)
		if direct != nil {
			direct.set(name, handler, directTool(t.InputSchema))
		}
	}
	if len(gone) > 0 {
		srv.RemoveTools(gone...)
	}
	for _, name := range gone {
		if direct != nil {
			direct.set(name, nil, false)
		}
	}
	fb, _ := br.backend.(FeatureBackend)
	if fb == nil {
		return nil
	}
	update(old.prompts, now.prompts, promptID, func(p host.Prompt) { br.addPrompt(srv, fb, p) }, srv.RemovePrompts)
	update(old.resources, now.resources, resourceURI, func(r host.Resource) {
		srv.AddResource(&mcp.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType}, br.readHandler(fb))
	}, srv.RemoveResources)
	update(old.templates, now.templates, templateURI, func(t host.ResourceTemplate) {
		srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType}, br.readHandler(fb))
	}, srv.RemoveResourceTemplates)
	return nil
}

// update adds the items of now that are new or changed from old, and
// removes those gone.
func update[T any](old, now []T, nameOf func(T) string, add func(T), remove func(...string)) {
	var gone []string
	for _, name := range changedNames(old, now, nameOf) {
		if x, ok := find(now, name, nameOf); ok {
			add(x)
		} else {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		remove(gone...)
	}
}

// set replaces the direct path's handler of a tool; a nil handler, or a
// tool the direct path may not serve, leaves it to the SDK.
func (calls *directCalls) set(name string, handler mcp.ToolHandler, direct bool) {
	calls.mu.Lock()
	defer calls.mu.Unlock()
	if handler == nil || !direct {
		delete(calls.handlers, name)
		return
	}
	calls.handlers[name] = handler
}

// handler returns the direct path's handler of a tool.
func (calls *directCalls) handler(name string) (mcp.ToolHandler, bool) {
	calls.mu.RLock()
	defer calls.mu.RUnlock()
	h, ok := calls.handlers[name]
	return h, ok
}

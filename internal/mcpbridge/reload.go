package mcpbridge

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
)

// A server's lists live: when its backend changes its mods (a host.Live
// swapping in a host loaded afresh), Reload registers the tools, prompts,
// resources and templates again, removes those gone, and the SDK sends
// each session notifications/tools/list_changed (prompts, resources
// likewise), which the capabilities announce. What the server decides
// from the tools beyond the SDK's lists (the views and their pages,
// scopes, approval, task support) is one generation, replaced whole.

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
// (each changed tool converts, no tool takes a reserved name), calls
// swap, which makes s's backend serve next's mods, then registers what
// changed. When the check fails, swap is not called and s serves on as it
// was. Reloads of one server take turns.
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
	gen, err := newGeneration(now)
	if err != nil {
		return err
	}
	if err := swap(); err != nil {
		return err
	}
	br.register(s.mcp, s.direct, old, now, gen)
	return nil
}

// generation is what a server serves from one version of its mods beside
// the SDK's lists: built whole from the lists, never changed, replaced by
// Reload. A request reads it once (bridge.now).
type generation struct {
	// tools are the tools served, converted, by name.
	tools map[string]servedTool
	// views are the tools with a custom view; apps the URIs of their pages.
	views map[string]viewTool
	apps  map[string]bool
	// scopes are the scopes each tool needs, for those that need any;
	// promptScopes likewise for prompts.
	scopes, promptScopes toolScopes
	// approving are the tools whose calls may need a person's approval.
	approving map[string]bool
	// tasks are the tools that support tasks.
	tasks map[string]taskTool
	// resourceScopes are what each resource and template needs; nil when
	// none needs any.
	resourceScopes *ResourceScopes
}

// servedTool is a tool as MCP lists it.
type servedTool struct {
	host.Tool
	mt      *mcp.Tool
	wrapped bool
}

// newGeneration converts l's tools and derives the rest; it fails as
// NewServer does on a tool MCP cannot carry or a reserved name.
func newGeneration(l *lists) (*generation, error) {
	g := &generation{tools: map[string]servedTool{}, views: map[string]viewTool{}, apps: map[string]bool{},
		scopes: toolScopes{}, promptScopes: toolScopes{}, approving: map[string]bool{}, tasks: map[string]taskTool{}}
	for _, t := range l.tools {
		mt, wrapped, err := mcpTool(t)
		if err != nil {
			return nil, err
		}
		if t.HasView {
			uri := AppURI(t.Mod, t.Name)
			mt.Meta = appMeta(uri)
			g.views[t.Name] = viewTool{Tool: t, wrapped: wrapped}
			g.apps[uri] = true
		}
		if len(t.Scopes) > 0 {
			g.scopes[t.Name] = t.Scopes
		}
		if t.Approval != nil {
			g.approving[t.Name] = true
		}
		if t.Task != "" {
			g.tasks[t.Name] = taskTool{Tool: t, wrapped: wrapped}
		}
		g.tools[t.Name] = servedTool{Tool: t, mt: mt, wrapped: wrapped}
	}
	if _, ok := g.tools[RenderViewTool]; ok && len(g.views) > 0 {
		return nil, fmt.Errorf("mcp: tool %s of mod %s: the name is reserved for MCP Apps views", RenderViewTool, g.tools[RenderViewTool].Mod)
	}
	for _, p := range l.prompts {
		if len(p.Scopes) > 0 {
			g.promptScopes[p.ID] = p.Scopes
		}
	}
	if rs := NewResourceScopes(l.resources, l.templates); rs.any {
		g.resourceScopes = rs
	}
	return g, nil
}

// now returns the generation served.
func (br *bridge) now() *generation { return br.gen.Load() }

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

// register makes srv (and its direct path, if any) serve gen, built
// from now, where it served old. The generation is served first, then the
// SDK's lists change: a request between the two meets the new scopes and
// the new approval rules, never a tool listed without them.
func (br *bridge) register(srv *mcp.Server, direct *directCalls, old, now *lists, gen *generation) {
	was := br.gen.Swap(gen)
	var gone []string
	for _, name := range changedNames(old.tools, now.tools, toolName) {
		st, ok := gen.tools[name]
		if !ok {
			gone = append(gone, name)
			continue
		}
		handler := br.callHandler(st.Tool, st.wrapped)
		srv.AddTool(st.mt, handler)
		if direct != nil {
			direct.set(name, handler, directTool(st.InputSchema))
		}
		if st.HasView {
			br.addApp(srv, st.Tool)
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
	br.swapApps(srv, was, gen)
	fb, _ := br.backend.(FeatureBackend)
	if fb == nil {
		return
	}
	update(old.prompts, now.prompts, promptID, func(p host.Prompt) { br.addPrompt(srv, fb, p) }, srv.RemovePrompts)
	update(old.resources, now.resources, resourceURI, func(r host.Resource) {
		srv.AddResource(mcpResource(r), br.readHandler(fb))
	}, srv.RemoveResources)
	update(old.templates, now.templates, templateURI, func(t host.ResourceTemplate) {
		srv.AddResourceTemplate(mcpTemplate(t), br.readHandler(fb))
	}, srv.RemoveResourceTemplates)
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

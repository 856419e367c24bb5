package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/uritemplate"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// Errors of resources and prompts a caller acts on; test with errors.Is.
var (
	// ErrResourceNotFound: no loaded mod has a resource at the URI, or
	// the mod that would have it says it does not exist.
	ErrResourceNotFound = errors.New("resource not found")
	// ErrBadArguments: a prompt's arguments leave out a required one or
	// name one it does not declare.
	ErrBadArguments = errors.New("bad prompt arguments")
)

// Resource is a resource as listed by the host.
type Resource struct {
	// Mod is the id of the mod that has the resource.
	Mod string
	manifest.Resource
}

// ResourceTemplate is a resource template as listed by the host.
type ResourceTemplate struct {
	// Mod is the id of the mod that has the template.
	Mod string
	manifest.ResourceTemplate
}

// Prompt is a slash command as an MCP client sees it: a prompt of the same
// name, with the command's declared arguments.
type Prompt struct {
	// Mod is the id of the mod that has the slash command.
	Mod string
	manifest.SlashCommand
}

// ResourceResult is what a resource read returns.
type ResourceResult struct {
	// Mod is the id of the mod that read it; URI is the resource's.
	Mod, URI string
	sdk.ResourceContents
}

// PromptResult is what getting a prompt returns.
type PromptResult struct {
	// Mod is the id of the mod whose slash command it is.
	Mod         string
	Description string
	Messages    []sdk.PromptMessage
	// Questions are to be answered when the Asker answered ErrAskLater:
	// then there are no messages. Answered are as in CallResult.
	Questions []Question
	Answered  []Answered
}

// CompleteRequest asks for values of one argument of the slash command
// Prompt, or one variable of the resource template Template (its URI
// template): set one of the two.
type CompleteRequest struct {
	Prompt, Template string
	sdk.CompletionRequest
	Session sdk.Session
}

// ResourceUpdate says a mod changed one of its resources.
type ResourceUpdate struct {
	Mod, URI string
}

// features are the host's resources, templates and update listeners.
type features struct {
	resources map[string]*mod
	templates []*template // in load order
	mu        sync.Mutex
	listeners map[int]func(ResourceUpdate)
	next      int
}

type template struct {
	mod    *mod
	man    manifest.ResourceTemplate
	parsed *uritemplate.Template
}

// featuresClash returns the clash of m's resources or templates with a
// loaded mod's, or nil.
func (h *Host) featuresClash(m *mod, clash func(kind, name string, prev *mod) *ModError) *ModError {
	for _, r := range m.man.Resources {
		if prev, ok := h.feat.resources[r.URI]; ok {
			return clash("resource", r.URI, prev)
		}
	}
	for _, t := range m.man.ResourceTemplates {
		for _, prev := range h.feat.templates {
			if prev.man.URITemplate == t.URITemplate {
				return clash("resource template", t.URITemplate, prev.mod)
			}
		}
	}
	return nil
}

// addFeatures adds m's resources and templates; featuresClash found no
// clash.
func (h *Host) addFeatures(m *mod) {
	if h.feat.resources == nil {
		h.feat.resources = map[string]*mod{}
	}
	for _, r := range m.man.Resources {
		h.feat.resources[r.URI] = m
	}
	for _, t := range m.man.ResourceTemplates {
		parsed, err := uritemplate.Parse(t.URITemplate)
		if err != nil { // the manifest was validated
			continue
		}
		h.feat.templates = append(h.feat.templates, &template{mod: m, man: t, parsed: parsed})
	}
}

// Resources returns the loaded mods' resources, sorted by URI. A
// resource that declares no icons has its mod's.
func (h *Host) Resources() []Resource {
	out := []Resource{}
	for _, m := range h.mods {
		for _, r := range m.man.Resources {
			r.Scopes = slices.Clone(r.Scopes)
			r.Icons = iconsOr(r.Icons, m.man.Icons)
			out = append(out, Resource{Mod: m.man.ID, Resource: r})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	return out
}

// ResourceTemplates returns the loaded mods' resource templates, sorted by
// URI template. A template that declares no icons has its mod's.
func (h *Host) ResourceTemplates() []ResourceTemplate {
	out := []ResourceTemplate{}
	for _, t := range h.feat.templates {
		mt := t.man
		mt.Scopes = slices.Clone(mt.Scopes)
		mt.Icons = iconsOr(mt.Icons, t.mod.man.Icons)
		out = append(out, ResourceTemplate{Mod: t.mod.man.ID, ResourceTemplate: mt})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URITemplate < out[j].URITemplate })
	return out
}

// Prompts returns the loaded mods' slash commands as prompts, sorted by
// id. A prompt that declares no icons has its mod's.
func (h *Host) Prompts() []Prompt {
	out := []Prompt{}
	for _, m := range h.mods {
		for _, s := range m.man.SlashCommands {
			s.Arguments = slices.Clone(s.Arguments)
			s.Scopes = slices.Clone(s.Scopes)
			s.Icons = iconsOr(s.Icons, m.man.Icons)
			out = append(out, Prompt{Mod: m.man.ID, SlashCommand: s})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// iconsOr returns a copy of own, or of the mod's icons when own is
// empty: a mod's icons stand for its tools, prompts and resources that
// have none.
func iconsOr(own, mod []manifest.Icon) []manifest.Icon {
	if len(own) == 0 {
		own = mod
	}
	return (&manifest.Manifest{Icons: own}).Clone().Icons
}

// lookupResource returns the mod with the resource at uri and the template
// it matched ("" for a resource), or false.
func (h *Host) lookupResource(uri string) (*mod, string, bool) {
	if m, ok := h.feat.resources[uri]; ok {
		return m, "", true
	}
	for _, t := range h.sortedTemplates() {
		if _, ok := t.parsed.Match(uri); ok {
			return t.mod, t.man.URITemplate, true
		}
	}
	return nil, "", false
}

// sortedTemplates are the templates in the order a URI is matched
// against them: by URI template, so that the match is the same whatever
// the order mods load in.
func (h *Host) sortedTemplates() []*template {
	ts := slices.Clone(h.feat.templates)
	sort.Slice(ts, func(i, j int) bool { return ts[i].man.URITemplate < ts[j].man.URITemplate })
	return ts
}

// ReadResource reads the resource at uri, a resource's URI or one a
// template matches, in its mod. It returns ErrResourceNotFound when no
// loaded mod has it or its mod says it does not exist.
func (h *Host) ReadResource(ctx context.Context, uri string, session sdk.Session) (*ResourceResult, error) {
	ctx = withWorkspace(ctx, session.Workspace)
	if err := h.requestTooLarge("the uri", len(uri)); err != nil {
		return nil, fmt.Errorf("read resource: %w", err)
	}
	m, tmpl, ok := h.lookupResource(uri)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrResourceNotFound, uri)
	}
	what := "read resource " + uri
	p, f, err := m.features(ctx, what, "resources")
	if err != nil {
		return nil, err
	}
	req := &modapi.ResourceRequest{URI: uri, Template: tmpl, Session: session, Today: h.opts.Today(), MaxResultBytes: h.opts.MaxResultBytes, Run: h.newRun()}
	resp, err := bounded(ctx, p, what, req.CallID, h.opts.CommandTimeout,
		func(ctx context.Context) (*modapi.ResourceResponse, error) { return f.ReadResource(ctx, req) })
	switch {
	case err != nil:
		return nil, err
	case resp.NotFound:
		return nil, fmt.Errorf("%w: %s", ErrResourceNotFound, uri)
	case resp.Error != "":
		return nil, fmt.Errorf("%s: mod %s failed: %s", what, m.man.ID, resp.Error)
	}
	return &ResourceResult{Mod: m.man.ID, URI: uri, ResourceContents: resp.Contents}, nil
}

// GetPrompt gets the prompt of slash command id with args, in its mod: the
// command's Prompt, or its Run whose message is one user message. It
// returns ErrUnknownCommand for no such command and ErrBadArguments for
// arguments the command does not declare or a required one left out. Its
// handler's questions cannot be asked; GetPromptAsking puts them.
func (h *Host) GetPrompt(ctx context.Context, id string, args map[string]string, session sdk.Session) (*PromptResult, error) {
	return h.GetPromptAsking(ctx, &PromptRequest{ID: id, Arguments: args, Session: session})
}

// PromptRequest asks for the prompt of a slash command whose Prompt may
// ask questions (sdk.Env.Ask, AskURL, Sample, Roots, AskAll), as a tool's
// handler does: Asker and Answers are as in CallRequest.
type PromptRequest struct {
	ID        string
	Arguments map[string]string
	Session   sdk.Session
	Agent     string
	Asker     Asker
	Answers   []Answered
}

// GetPromptAsking is GetPrompt with questions: the handler is run again
// from the start with each answer, as a tool's is. When the Asker answers
// ErrAskLater, the result has no messages and its Questions are to be
// answered, and the prompt got again with Answered and their answers.
// A handler that fails because a question could not be asked leaves the
// kinds in the error, a *PromptError.
func (h *Host) GetPromptAsking(ctx context.Context, preq *PromptRequest) (*PromptResult, error) {
	ctx = withWorkspace(ctx, preq.Session.Workspace)
	id, args := preq.ID, preq.Arguments
	m, ok := h.slash[id]
	if !ok {
		return nil, h.unknownCommand(id, true)
	}
	sc := slashCommand(m, id)
	if err := checkPromptArgs(sc, args); err != nil {
		return nil, err
	}
	size := 0
	for k, v := range args {
		size += len(k) + len(v)
	}
	what := "prompt " + id
	if err := h.requestTooLarge("the arguments", size); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	p, f, err := m.features(ctx, what, "prompts")
	if err != nil {
		return nil, err
	}
	// The prompt's questions go the way a call's do.
	creq := &CallRequest{Tool: id, Session: preq.Session, Agent: preq.Agent, Asker: preq.Asker, Answers: preq.Answers}
	run := h.newRun()
	qs := h.newQuestioning(creq, &CallResult{Tool: id, CallID: run.CallID}, &tool{mod: m, man: manifest.Tool{Name: id, Title: sc.Title}})
	req := &modapi.PromptRequest{ID: id, Arguments: args, Session: preq.Session, Today: h.opts.Today(), MaxResultBytes: h.opts.MaxResultBytes,
		Run: run, Answers: qs.modAnswers(), CanAsk: creq.canAsk()}
	for {
		resp, err := bounded(ctx, p, what, req.CallID, h.opts.CommandTimeout,
			func(ctx context.Context) (*modapi.PromptResponse, error) { return f.GetPrompt(ctx, req) })
		if err != nil {
			return nil, err
		}
		if len(resp.Questions) == 0 {
			// The mod checks the messages too; a mod built against another
			// sdk may not.
			if e := cmp.Or(resp.Error, modapi.CheckMessages(what, resp.Messages)); e != "" {
				return nil, &PromptError{Message: fmt.Sprintf("%s of mod %s failed: %s", what, m.man.ID, e), Unasked: resp.Unasked}
			}
			return &PromptResult{Mod: m.man.ID, Description: sc.Description, Messages: resp.Messages, Answered: qs.res.Answered}, nil
		}
		answers, end, ended := qs.ask(ctx, req.Answers, resp.Questions)
		switch {
		case !ended:
		case end.Status == callflow.StatusAsking:
			return &PromptResult{Mod: m.man.ID, Description: sc.Description, Questions: qs.res.Questions, Answered: qs.res.Answered}, nil
		case end.Status == modapi.StatusCancelled:
			return nil, fmt.Errorf("%s: %w", what, context.Cause(ctx))
		default:
			return nil, fmt.Errorf("%s: %s", what, end.Error)
		}
		req.Answers, req.CanAsk = answers, qs.canAsk()
		req.Run = h.newRun()
		if p, f, err = m.features(ctx, what, "prompts"); err != nil {
			return nil, err
		}
	}
}

// PromptError is why a prompt failed in its mod.
type PromptError struct {
	Message string
	// Unasked are the kinds of question the handler needed but the Asker
	// could not put, when it failed for that.
	Unasked []QuestionKind
}

func (e *PromptError) Error() string { return e.Message }

func slashCommand(m *mod, id string) manifest.SlashCommand {
	for _, s := range m.man.SlashCommands {
		if s.ID == id {
			return s
		}
	}
	return manifest.SlashCommand{ID: id}
}

// checkPromptArgs says which required argument is missing or which given
// one is not declared.
func checkPromptArgs(sc manifest.SlashCommand, args map[string]string) error {
	declared := map[string]bool{}
	var missing []string
	for _, a := range sc.Arguments {
		declared[a.Name] = true
		if a.Required && strings.TrimSpace(args[a.Name]) == "" {
			missing = append(missing, a.Name)
		}
	}
	var unknown []string
	for name := range args {
		if !declared[name] {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	switch {
	case len(missing) > 0:
		return fmt.Errorf("%w: prompt %s needs %s", ErrBadArguments, sc.ID, strings.Join(missing, ", "))
	case len(unknown) > 0:
		names := make([]string, 0, len(sc.Arguments))
		for _, a := range sc.Arguments {
			names = append(names, a.Name)
		}
		takes := "takes no arguments"
		if len(names) > 0 {
			takes = "takes " + strings.Join(names, ", ")
		}
		return fmt.Errorf("%w: prompt %s has no argument %s; it %s", ErrBadArguments, sc.ID, strings.Join(unknown, ", "), takes)
	}
	return nil
}

// Complete suggests values for an argument of a slash command or a
// variable of a resource template, from the mod's Complete handler; none
// when it has no handler. An unknown prompt is ErrUnknownCommand, an
// unknown template ErrResourceNotFound, and an argument or variable the
// prompt or template does not have ErrBadArguments.
func (h *Host) Complete(ctx context.Context, req *CompleteRequest) (sdk.Completion, error) {
	ctx = withWorkspace(ctx, req.Session.Workspace)
	var m *mod
	var completes bool
	var what string
	switch {
	case req.Prompt != "" && req.Template != "":
		return sdk.Completion{}, errors.New("complete: set a prompt or a resource template, not both")
	case req.Prompt != "":
		var ok bool
		if m, ok = h.slash[req.Prompt]; !ok {
			return sdk.Completion{}, h.unknownCommand(req.Prompt, true)
		}
		sc := slashCommand(m, req.Prompt)
		if !slices.ContainsFunc(sc.Arguments, func(a manifest.Argument) bool { return a.Name == req.Argument }) {
			return sdk.Completion{}, fmt.Errorf("%w: prompt %s has no argument %q", ErrBadArguments, req.Prompt, req.Argument)
		}
		completes, what = sc.Completes, "complete prompt "+req.Prompt
	case req.Template != "":
		i := slices.IndexFunc(h.feat.templates, func(t *template) bool { return t.man.URITemplate == req.Template })
		if i < 0 {
			return sdk.Completion{}, fmt.Errorf("%w: no resource template %s", ErrResourceNotFound, req.Template)
		}
		t := h.feat.templates[i]
		if !slices.Contains(t.parsed.Vars, req.Argument) {
			return sdk.Completion{}, fmt.Errorf("%w: resource template %s has no variable %q", ErrBadArguments, req.Template, req.Argument)
		}
		m, completes, what = t.mod, t.man.Completes, "complete resource template "+req.Template
	default:
		return sdk.Completion{}, errors.New("complete: no prompt or resource template")
	}
	if !completes {
		return sdk.Completion{Values: []string{}}, nil
	}
	if err := h.requestTooLarge("the value", len(req.Value)); err != nil {
		return sdk.Completion{}, fmt.Errorf("%s: %w", what, err)
	}
	p, f, err := m.features(ctx, what, "completions")
	if err != nil {
		return sdk.Completion{}, err
	}
	mreq := &modapi.CompleteRequest{Prompt: req.Prompt, Template: req.Template, CompletionRequest: req.CompletionRequest,
		Session: req.Session, Today: h.opts.Today(), Run: h.newRun()}
	resp, err := bounded(ctx, p, what, mreq.CallID, h.opts.CommandTimeout,
		func(ctx context.Context) (*modapi.CompleteResponse, error) { return f.Complete(ctx, mreq) })
	if err != nil {
		return sdk.Completion{}, err
	}
	if resp.Error != "" {
		return sdk.Completion{}, fmt.Errorf("%s of mod %s failed: %s", what, m.man.ID, resp.Error)
	}
	c := modapi.CapCompletion(resp.Completion)
	if c.Values == nil {
		c.Values = []string{}
	}
	return c, nil
}

// SubscribeResource checks that some loaded mod has the resource at uri
// (ErrResourceNotFound otherwise) and starts its mod, so that the mod's
// updates of it reach the OnResourceUpdated listeners.
func (h *Host) SubscribeResource(ctx context.Context, uri string) error {
	m, _, ok := h.lookupResource(uri)
	if !ok {
		return fmt.Errorf("%w: %s", ErrResourceNotFound, uri)
	}
	if _, err := m.getCtx(ctx); err != nil {
		return fmt.Errorf("subscribe to resource %s: %w", uri, err)
	}
	return nil
}

// OnResourceUpdated calls fn with each resource update a running mod
// sends, from the goroutine that watches that mod, until remove is
// called. A mod is watched from its start; one not started sends none.
func (h *Host) OnResourceUpdated(fn func(ResourceUpdate)) (remove func()) {
	h.feat.mu.Lock()
	defer h.feat.mu.Unlock()
	if h.feat.listeners == nil {
		h.feat.listeners = map[int]func(ResourceUpdate){}
	}
	id := h.feat.next
	h.feat.next++
	h.feat.listeners[id] = fn
	return func() {
		h.feat.mu.Lock()
		delete(h.feat.listeners, id)
		h.feat.mu.Unlock()
	}
}

func (h *Host) resourceUpdated(u ResourceUpdate) {
	h.feat.mu.Lock()
	fns := make([]func(ResourceUpdate), 0, len(h.feat.listeners))
	for _, fn := range h.feat.listeners {
		fns = append(fns, fn)
	}
	h.feat.mu.Unlock()
	for _, fn := range fns {
		fn(u)
	}
}

// features returns m's process, started when needed, and its features;
// serves names them in the error of a mod that has none.
func (m *mod) features(ctx context.Context, what, serves string) (*proc, modapi.Features, error) {
	p, err := m.getCtx(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	f, ok := p.rpc.(modapi.Features)
	if !ok {
		return nil, nil, fmt.Errorf("%s: mod %s serves no %s", what, m.man.ID, serves)
	}
	return p, f, nil
}

// watchResources relays the updates of p, m's new process, while it runs,
// when m has resources or templates.
func (m *mod) watchResources(p *proc) {
	if len(m.man.Resources) == 0 && len(m.man.ResourceTemplates) == 0 {
		return
	}
	f, ok := p.rpc.(modapi.Features)
	if !ok {
		return
	}
	go func() {
		err := f.WatchResources(m.ctx, func(uri string) {
			m.h.resourceUpdated(ResourceUpdate{Mod: m.man.ID, URI: uri})
		})
		if err != nil && m.ctx.Err() == nil && !p.hasExited() {
			m.logger().Debug("resource updates ended", "err", err)
		}
	}()
}

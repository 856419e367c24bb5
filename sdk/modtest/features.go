package modtest

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/uritemplate"
	"github.com/modkit/modkit/sdk"
)

// ReadResource reads the resource at uri, one of g's resources or a
// resource one of its templates matches, as a mod process reads it for a
// host: a panic is an error naming the resource, and contents over
// Options.MaxResultBytes are an error. A URI no resource or template has,
// or a handler's sdk.ErrResourceNotFound, is an error wrapping
// sdk.ErrResourceNotFound.
func ReadResource(t testing.TB, g *sdk.Generated, uri string, opts *Options) (sdk.ResourceContents, error) {
	t.Helper()
	opts = withTestLogger(t, opts)
	req := &modapi.ResourceRequest{URI: uri, Session: session(opts), Today: orDefault(opts.Today, DefaultToday), MaxResultBytes: maxBytes(opts)}
	if !slices.ContainsFunc(g.Mod.Resources, func(r sdk.Resource) bool { return r.URI == uri }) {
		for _, tmpl := range g.Mod.ResourceTemplates {
			p, err := uritemplate.Parse(tmpl.URITemplate)
			if err != nil {
				t.Fatalf("modtest: mod %s: %v", modID(g), err)
			}
			if _, ok := p.Match(uri); ok {
				req.Template = tmpl.URITemplate
				break
			}
		}
		if req.Template == "" {
			return sdk.ResourceContents{}, fmt.Errorf("%w: mod %s has no resource %s", sdk.ErrResourceNotFound, modID(g), uri)
		}
	}
	m, stop := served(t, g, opts)
	defer stop()
	resp, err := m.ReadResource(callContext(opts), req)
	switch {
	case err != nil:
		return sdk.ResourceContents{}, err
	case resp.NotFound:
		return sdk.ResourceContents{}, fmt.Errorf("%w: %s", sdk.ErrResourceNotFound, uri)
	case resp.Error != "":
		return sdk.ResourceContents{}, errors.New(resp.Error)
	}
	return resp.Contents, nil
}

// GetPrompt gets the prompt of g's slash command id with args, as a mod
// process does for a host: the command's Prompt, or its Run with the
// arguments' values joined, whose message is one user message. It fails t
// when the mod has no such slash command.
func GetPrompt(t testing.TB, g *sdk.Generated, id string, args map[string]string, opts *Options) ([]sdk.PromptMessage, error) {
	t.Helper()
	opts = withTestLogger(t, opts)
	if !slices.ContainsFunc(g.Mod.SlashCommands, func(c sdk.SlashCommand) bool { return c.ID == id }) {
		t.Fatalf("modtest: mod %s has no slash command %q", modID(g), id)
	}
	srv, stop := served(t, g, opts)
	defer stop()
	req := &modapi.PromptRequest{
		ID: id, Arguments: args, Session: session(opts), Today: orDefault(opts.Today, DefaultToday), MaxResultBytes: maxBytes(opts),
	}
	if opts.Answers != nil {
		req.CanAsk = modapi.Kinds
	}
	// The prompt's questions are answered from opts.Answers as a tool
	// call's are, and the handler run again with them.
	var seen []Question
	for {
		resp, err := srv.GetPrompt(callContext(opts), req)
		if err != nil {
			return nil, err
		}
		if len(resp.Questions) == 0 {
			if resp.Error != "" {
				return nil, errors.New(resp.Error)
			}
			if key := unasked(opts.Answers, seen); key != "" {
				return nil, fmt.Errorf("modtest: Options.Answers answers question %q, which the handler never asked", key)
			}
			return resp.Messages, nil
		}
		var msg string
		if req.Answers, msg = answerFrom(opts, resp.Questions, req.Answers, &seen, "prompt "+id); msg != "" {
			return nil, errors.New(msg)
		}
	}
}

// Complete asks g's slash command prompt, or its resource template with
// URI template tmpl (set one of the two), for values of req.Argument, as
// a host does. It fails t when the mod has neither.
func Complete(t testing.TB, g *sdk.Generated, prompt, tmpl string, req sdk.CompletionRequest, opts *Options) (sdk.Completion, error) {
	t.Helper()
	opts = withTestLogger(t, opts)
	if !slices.ContainsFunc(g.Mod.SlashCommands, func(c sdk.SlashCommand) bool { return c.ID == prompt }) &&
		!slices.ContainsFunc(g.Mod.ResourceTemplates, func(r sdk.ResourceTemplate) bool { return r.URITemplate == tmpl }) {
		t.Fatalf("modtest: mod %s has no slash command %q or resource template %q", modID(g), prompt, tmpl)
	}
	m, stop := served(t, g, opts)
	defer stop()
	resp, err := m.Complete(callContext(opts), &modapi.CompleteRequest{
		Prompt: prompt, Template: tmpl, CompletionRequest: req, Session: session(opts), Today: orDefault(opts.Today, DefaultToday),
	})
	if err != nil {
		return sdk.Completion{}, err
	}
	if resp.Error != "" {
		return sdk.Completion{}, errors.New(resp.Error)
	}
	return resp.Completion, nil
}

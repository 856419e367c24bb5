package sdk

import (
	"context"
	"errors"

	"github.com/modkit/modkit/internal/sdkrt"
)

func init() {
	sdkrt.SetEnvNotify = func(env any, notify func(uri string)) {
		if e, ok := env.(*Env); ok {
			e.notify = notify
		}
	}
	sdkrt.SetEnvAsk = func(env any, ask sdkrt.Asker) {
		if e, ok := env.(*Env); ok {
			e.ask = ask
		}
	}
}

// Resource is a document a mod offers at a fixed URI: a client lists it and
// reads it through the host, which calls Read in the mod. URI, Name, Title,
// Description and MIMEType must be compile-time constants.
type Resource struct {
	// URI names the resource, with a scheme: "research://notes/index".
	// It is unique among the loaded mods' resources.
	URI string
	// Name identifies the resource to programs: lower-case words, like
	// "notes_index".
	Name string
	// Title is the resource's name for people; optional.
	Title string
	// Description says what the resource holds.
	Description string
	// MIMEType is the type of the contents, like "text/markdown"; optional.
	MIMEType string
	// Icons stand for the resource in a client's interface; the mod's
	// when empty.
	Icons []Icon
	// Read returns the resource's contents; modgen requires it. Return an
	// error wrapping ErrResourceNotFound when the resource does not exist
	// at the moment.
	Read func(ctx context.Context, env *Env, uri string) (ResourceContents, error)
	// Scopes are the OAuth scopes a caller must hold to see and read the
	// resource, as for a tool's Scopes.
	Scopes []string
}

// ResourceTemplate is a family of resources named by a URI template of
// RFC 6570 level 1: literal text and {variables}, like
// "research://notes/{name}". Each variable matches one path segment (no
// '/'), percent-decoded: the value comes from the client and may hold any
// text, "../x" from "..%2Fx" included, so check it like any input.
type ResourceTemplate struct {
	// URITemplate is the template, with a scheme and at least one
	// variable.
	URITemplate string
	// Name identifies the template to programs, like "note".
	Name string
	// Title is the template's name for people; optional.
	Title string
	// Description says what the resources hold.
	Description string
	// MIMEType is the type of the contents; optional.
	MIMEType string
	// Icons stand for the template's resources in a client's interface;
	// the mod's when empty.
	Icons []Icon
	// Read returns the contents of the resource at uri, whose variables
	// are in vars; modgen requires it. An error wrapping
	// ErrResourceNotFound says no such resource exists.
	Read func(ctx context.Context, env *Env, uri string, vars map[string]string) (ResourceContents, error)
	// Complete suggests values for one of the template's variables;
	// optional. CompletionRequest.Argument names the variable and Context
	// holds the variables already chosen.
	Complete func(ctx context.Context, env *Env, req CompletionRequest) (Completion, error)
	// Scopes are the OAuth scopes a caller must hold to see the template
	// and read its resources, as for a tool's Scopes.
	Scopes []string
}

// ResourceContents are what a read returns: Text, or Blob for binary
// contents, never both.
type ResourceContents struct {
	// MIMEType overrides the declared MIME type; empty keeps it.
	MIMEType string
	// Text is the contents of a text resource.
	Text string
	// Blob is the contents of a binary resource.
	Blob []byte
}

// ErrResourceNotFound is the error a Read handler wraps when the resource
// asked for does not exist. The host reports it as its own
// ErrResourceNotFound, and MCP clients get the protocol's
// resource-not-found error.
var ErrResourceNotFound = errors.New("resource not found")

// ResourceUpdated tells the host that the resource at uri changed, so that
// the clients subscribed to it read it again. Keep the Env given to
// Activate to call it from a goroutine that watches the source. It never
// blocks; without a host it does nothing.
func (e *Env) ResourceUpdated(uri string) {
	if e != nil && e.notify != nil {
		e.notify(uri)
	}
}

// ResourceUpdated tells the host that the resource at uri changed, as
// [Env.ResourceUpdated] does: call it when the tool wrote what a resource
// reads. It never blocks.
func (c *ToolContext) ResourceUpdated(uri string) {
	if c.call.ResourceUpdated != nil {
		c.call.ResourceUpdated(uri)
	}
}

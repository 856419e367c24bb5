package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// FeatureBackend is what the bridge needs from a host to serve resources,
// prompts and completions. *host.Host implements it; a Backend without it
// serves tools only.
type FeatureBackend interface {
	Resources() []host.Resource
	ResourceTemplates() []host.ResourceTemplate
	ReadResource(ctx context.Context, uri string, session sdk.Session) (*host.ResourceResult, error)
	SubscribeResource(ctx context.Context, uri string) error
	OnResourceUpdated(fn func(host.ResourceUpdate)) (remove func())
	Prompts() []host.Prompt
	GetPromptAsking(ctx context.Context, req *host.PromptRequest) (*host.PromptResult, error)
	Complete(ctx context.Context, req *host.CompleteRequest) (sdk.Completion, error)
}

var _ FeatureBackend = (*host.Host)(nil)

// CodeResourceNotFoundLegacy is the resource-not-found error code of the
// revisions before 2026-07-28; from 2026-07-28 on it is -32602 (invalid
// params), with the URI in the error's data either way.
const CodeResourceNotFoundLegacy = -32002

// revisionStateless is the first revision with no sessions, whose
// resource-not-found code is invalid params.
const revisionStateless = "2026-07-28"

// featureOptions sets the server options resources, prompts and
// completions need: the completion handler, subscriptions, and the
// capabilities (the lists change when a mod is reloaded: Reload).
func (br *bridge) featureOptions(fb FeatureBackend, opts *mcp.ServerOptions) {
	if fb == nil {
		return
	}
	if len(fb.Resources()) > 0 || len(fb.ResourceTemplates()) > 0 {
		opts.Capabilities.Resources = &mcp.ResourceCapabilities{ListChanged: true}
	}
	// Resources may come with a reload: the SDK announces the capability
	// and subscriptions once the server has some.
	opts.SubscribeHandler = func(ctx context.Context, req *mcp.SubscribeRequest) error {
		uri := req.Params.URI
		if br.now().apps[uri] {
			return nil // a view page never changes while served
		}
		if err := br.checkResourceScope(uri, req.Extra); err != nil {
			return err
		}
		return readError(fb.SubscribeResource(ctx, uri), uri)
	}
	opts.UnsubscribeHandler = func(context.Context, *mcp.UnsubscribeRequest) error { return nil }
	if len(fb.Prompts()) > 0 {
		opts.Capabilities.Prompts = &mcp.PromptCapabilities{ListChanged: true}
	}
	if completes(fb) {
		opts.CompletionHandler = br.completionHandler(fb)
	}
}

// completes reports whether some prompt or template has a Complete
// handler: only then does the server offer completions.
func completes(fb FeatureBackend) bool {
	for _, p := range fb.Prompts() {
		if p.Completes {
			return true
		}
	}
	for _, t := range fb.ResourceTemplates() {
		if t.Completes {
			return true
		}
	}
	return false
}

// addFeatures forwards the mods' resource updates to subscribed clients
// (register registers the resources, templates and prompts).
func (br *bridge) addFeatures(srv *mcp.Server, fb FeatureBackend) {
	if fb == nil {
		return
	}
	// Resources may come with a reload: the server listens from the start.
	fb.OnResourceUpdated(func(u host.ResourceUpdate) {
		if err := srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: u.URI}); err != nil {
			br.opts.Logger.Debug("mcp: resource updated notification", "uri", u.URI, "err", err)
		}
	})
	srv.AddReceivingMiddleware(notFoundCode)
}

// mcpResource is a mod's resource as MCP lists it.
func mcpResource(r host.Resource) *mcp.Resource {
	return &mcp.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Icons: mcpIcons(r.Icons)}
}

// mcpTemplate is a mod's resource template as MCP lists it.
func mcpTemplate(t host.ResourceTemplate) *mcp.ResourceTemplate {
	return &mcp.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType, Icons: mcpIcons(t.Icons)}
}

// readHandler reads a resource of a mod through the host.
func (br *bridge) readHandler(fb FeatureBackend) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		if err := br.checkResourceScope(uri, req.Extra); err != nil {
			return nil, err
		}
		res, err := fb.ReadResource(ctx, uri, br.session(req.Session))
		if err != nil {
			return nil, readError(err, uri)
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: res.URI, MIMEType: res.MIMEType, Text: res.Text, Blob: res.Blob,
		}}}, nil
	}
}

// readError is the JSON-RPC error of a failed read or subscription: MCP's
// resource-not-found for host.ErrResourceNotFound.
func readError(err error, uri string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, host.ErrResourceNotFound):
		return mcp.ResourceNotFoundError(uri)
	case errors.Is(err, host.ErrClosed):
		return err
	}
	return fmt.Errorf("read resource %s: %w", uri, err)
}

// notFoundCode is middleware that gives a resource-not-found error the
// code of the request's revision: -32002 before 2026-07-28, -32602 from
// it on. The SDK answers an unknown URI itself, with -32602.
func notFoundCode(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		var je *jsonrpc.Error
		if err == nil || !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !isNotFound(je) {
			return res, err
		}
		if revisionOf(req) >= revisionStateless {
			return res, err
		}
		legacy := *je
		legacy.Code = CodeResourceNotFoundLegacy
		return res, &legacy
	}
}

func isNotFound(je *jsonrpc.Error) bool {
	if !strings.EqualFold(je.Message, "Resource not found") {
		return false
	}
	var data struct {
		URI string `json:"uri"`
	}
	return json.Unmarshal(je.Data, &data) == nil && data.URI != ""
}

// revisionOf is the protocol revision a request speaks.
func revisionOf(req mcp.Request) string {
	switch r := req.(type) {
	case *mcp.ReadResourceRequest:
		return r.ProtocolVersion()
	case *mcp.SubscribeRequest:
		return r.ProtocolVersion()
	}
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		if p := ss.InitializeParams(); p != nil {
			return p.ProtocolVersion
		}
	}
	return ""
}

package mcpbridge

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// AppMIMEType is the MIME type of an MCP Apps page.
const AppMIMEType = "text/html;profile=mcp-app"

// RenderViewTool is the app-only tool a view page calls to get the mod's
// rendering of one phase. Its _meta.ui.visibility is ["app"], so hosts that
// implement MCP Apps do not offer it to the model.
const RenderViewTool = "modkit_render_view"

// UIExtension is the MCP Apps extension a client declares in its
// capabilities' extensions when it can show view pages.
const UIExtension = "io.modelcontextprotocol/ui"

// AppURI returns the ui:// resource of a tool's view page.
func AppURI(mod, tool string) string { return "ui://" + mod + "/" + tool }

//go:embed app.html
var appPage string

var appTemplate = template.Must(template.New("app").Parse(appPage))

// addApp registers the view page of t, an MCP App (its tool's _meta
// names the page: newGeneration), as a resource.
func (br *bridge) addApp(srv *mcp.Server, t host.Tool) {
	uri := AppURI(t.Mod, t.Name)
	srv.AddResource(&mcp.Resource{
		URI:         uri,
		Name:        t.Name + "_view",
		Title:       t.Name + " view",
		Description: "The view of the " + t.Name + " tool of mod " + t.Mod + ", for every phase of a call.",
		MIMEType:    AppMIMEType,
		Icons:       mcpIcons(t.Icons),
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		page, err := renderAppPage(t.Name)
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI:      uri,
			MIMEType: AppMIMEType,
			Text:     page,
		}}}, nil
	})
}

// swapApps follows a change of generation from was (nil at start) to
// now: it removes the view pages gone, and serves RenderViewTool while
// some tool has a view.
func (br *bridge) swapApps(srv *mcp.Server, was, now *generation) {
	var gone []string
	hadViews := false
	if was != nil {
		hadViews = len(was.views) > 0
		for uri := range was.apps {
			if !now.apps[uri] {
				gone = append(gone, uri)
			}
		}
	}
	if len(gone) > 0 {
		srv.RemoveResources(gone...)
	}
	switch {
	case len(now.views) > 0 && !hadViews:
		srv.AddTool(renderViewTool(), br.renderViewHandler)
	case len(now.views) == 0 && hadViews:
		srv.RemoveTools(RenderViewTool)
	}
}

// appMeta is the _meta of a tool whose view page is uri: the current key
// and the older flat one.
func appMeta(uri string) mcp.Meta {
	return mcp.Meta{
		"ui":             map[string]any{"resourceUri": uri},
		"ui/resourceUri": uri,
	}
}

// hideRenderTool is middleware that lists RenderViewTool only to clients
// that declare UIExtension: to any other, an app-only tool is one more tool
// a model could be offered.
func hideRenderTool(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		lr, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok || declaresUI(req.GetSession()) {
			return res, err
		}
		filtered := *lr
		filtered.Tools = slices.DeleteFunc(slices.Clone(lr.Tools), func(t *mcp.Tool) bool { return t.Name == RenderViewTool })
		return &filtered, nil
	}
}

// declaresUI reports whether the client of a session declared UIExtension.
func declaresUI(s mcp.Session) bool {
	ss, ok := s.(*mcp.ServerSession)
	if !ok {
		return false
	}
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil {
		return false
	}
	_, ok = p.Capabilities.Extensions[UIExtension]
	return ok
}

// renderAppPage returns the view page of a tool.
func renderAppPage(tool string) (string, error) {
	var buf bytes.Buffer
	err := appTemplate.Execute(&buf, struct{ Tool, RenderTool string }{tool, RenderViewTool})
	if err != nil {
		return "", fmt.Errorf("mcp: view page of %s: %w", tool, err)
	}
	return buf.String(), nil
}

// renderViewInput is the input of RenderViewTool.
type renderViewInput struct {
	Tool   string          `json:"tool"`
	Phase  sdk.Phase       `json:"phase"`
	Input  json.RawMessage `json:"input,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

func renderViewTool() *mcp.Tool {
	return &mcp.Tool{
		Name:  RenderViewTool,
		Title: "Render a tool's view",
		Description: "Returns the HTML a mod renders for one phase of a call of one of its tools. " +
			"Called by MCP Apps view pages, not by the model.",
		Meta: mcp.Meta{"ui": map[string]any{"visibility": []string{"app"}}},
		InputSchema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "tool": {"type": "string", "description": "The tool whose view to render."},
    "phase": {"type": "string", "enum": ["preparing", "running", "completed", "failed"]},
    "input": {"description": "The tool input; partial while preparing."},
    "result": {"description": "The call's structuredContent, when completed."},
    "error": {"type": "string", "description": "Why the call failed, when failed."}
  },
  "required": ["tool", "phase"],
  "additionalProperties": false
}`),
		OutputSchema: json.RawMessage(`{
  "type": "object",
  "properties": {"html": {"type": "string"}},
  "required": ["html"],
  "additionalProperties": false
}`),
	}
}

// renderViewHandler serves RenderViewTool.
func (br *bridge) renderViewHandler(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in renderViewInput
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
		return errorResult("invalid input: " + err.Error()), nil
	}
	vt, ok := br.now().views[in.Tool]
	if !ok {
		return errorResult(fmt.Sprintf("invalid input: /tool: %q has no view", in.Tool)), nil
	}
	switch in.Phase {
	case sdk.PhasePreparing, sdk.PhaseRunning, sdk.PhaseCompleted, sdk.PhaseFailed:
	default:
		return errorResult(fmt.Sprintf("invalid input: /phase: %q is not a phase", in.Phase)), nil
	}
	result := in.Result
	if vt.wrapped && len(result) > 0 {
		var w struct {
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(result, &w); err != nil {
			return errorResult("invalid input: /result: " + err.Error()), nil
		}
		result = w.Result
	}
	html, err := br.backend.RenderView(ctx, in.Tool, sdk.RawViewState{
		Phase: in.Phase, Input: in.Input, Result: result, Error: in.Error,
	})
	if err != nil {
		return errorResult("Tool failed: " + err.Error()), nil
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: html}},
		StructuredContent: map[string]string{"html": html},
	}, nil
}

package mcpbridge

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

// resourceBackend serves the resources m://open, which needs no scope,
// and m://secret, which needs notes.write, and the templates
// m://public/{name} (no scope) and m://notes/{name} (notes.write).
type resourceBackend struct{ promptBackend }

func (resourceBackend) Prompts() []host.Prompt { return nil }

func (resourceBackend) Resources() []host.Resource {
	return []host.Resource{
		{Mod: "m", Resource: manifest.Resource{URI: "m://open", Name: "open", Description: "Open."}},
		{Mod: "m", Resource: manifest.Resource{URI: "m://secret", Name: "secret", Description: "Secret.", Scopes: []string{"notes.write"}}},
	}
}

func (resourceBackend) ResourceTemplates() []host.ResourceTemplate {
	return []host.ResourceTemplate{
		{Mod: "m", ResourceTemplate: manifest.ResourceTemplate{URITemplate: "m://public/{name}", Name: "public", Description: "Public."}},
		{Mod: "m", ResourceTemplate: manifest.ResourceTemplate{URITemplate: "m://notes/{name}", Name: "note", Description: "A note.", Scopes: []string{"notes.write", "notes.read"}}},
	}
}

func (resourceBackend) ReadResource(_ context.Context, uri string, _ sdk.Session) (*host.ResourceResult, error) {
	return &host.ResourceResult{Mod: "m", URI: uri, ResourceContents: sdk.ResourceContents{Text: "read " + uri}}, nil
}

// serveFeaturesAuth serves fb's tools, prompts and resources over
// streamable HTTP behind an issuer's tokens, and returns the endpoint's
// URL and the issuer.
func serveFeaturesAuth(t *testing.T, fb FeatureBackend) (string, *mcpauthtest.Issuer) {
	t.Helper()
	is := mcpauthtest.NewIssuer(t)
	srv, err := NewServer(fb.(Backend), nil)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	url := ts.URL + HTTPPath
	auth, err := mcpauth.New(t.Context(), &mcpauth.Options{Issuer: is.URL, Resource: url, Scopes: Scopes(nil, fb)})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.NewHTTPHandler(&HTTPOptions{Auth: auth})
	t.Cleanup(h.Close)
	mux.Handle(HTTPPath, h)
	return url, is
}

// resourceLists returns the URIs of the resources and templates cs lists.
func resourceLists(t *testing.T, cs *mcp.ClientSession) (resources, templates string) {
	t.Helper()
	rl, err := cs.ListResources(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := cs.ListResourceTemplates(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var rs, ts []string
	for _, r := range rl.Resources {
		rs = append(rs, r.URI)
	}
	for _, tt := range tl.ResourceTemplates {
		ts = append(ts, tt.URITemplate)
	}
	return strings.Join(rs, " "), strings.Join(ts, " ")
}

func TestResourceScopes(t *testing.T) {
	t.Parallel()
	rb := resourceBackend{promptBackend{scopedBackend()}}
	if got := strings.Join(Scopes(nil, rb), " "); got != "notes.read notes.write" {
		t.Errorf("Scopes: got %q, want notes.read notes.write", got)
	}
	t.Run("local", func(t *testing.T) {
		for _, tt := range []struct {
			scopes               []string
			resources, templates string
		}{
			{nil, "m://open m://secret", "m://notes/{name} m://public/{name}"},
			{[]string{}, "m://open", "m://public/{name}"},
			{[]string{"notes.write"}, "m://open m://secret", "m://public/{name}"},
			{[]string{"notes.write", "notes.read"}, "m://open m://secret", "m://notes/{name} m://public/{name}"},
		} {
			srv, err := NewServer(rb, &Options{Scopes: tt.scopes})
			if err != nil {
				t.Fatal(err)
			}
			cs := connectServer(t, srv)
			resources, templates := resourceLists(t, cs)
			if resources != tt.resources || templates != tt.templates {
				t.Errorf("scopes %q: got resources %q and templates %q, want %q and %q", tt.scopes, resources, templates, tt.resources, tt.templates)
			}
			for _, c := range []struct{ uri, need string }{{"m://secret", "notes.write"}, {"m://notes/a", "notes.write notes.read"}, {"m://open", ""}, {"m://public/a", ""}} {
				res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: c.uri})
				listed := strings.Contains(resources, c.uri) || (strings.HasPrefix(c.uri, "m://notes/") && strings.Contains(templates, "m://notes/")) || c.need == ""
				switch {
				case listed && (err != nil || res.Contents[0].Text != "read "+c.uri):
					t.Errorf("scopes %q: reading %s: got %v, %v; want it read", tt.scopes, c.uri, res, err)
				case !listed && (err == nil || !strings.Contains(err.Error(), "insufficient scope: resource "+c.uri+" needs the scopes "+c.need)):
					t.Errorf("scopes %q: reading %s: got %v, want it refused naming %s", tt.scopes, c.uri, err, c.need)
				}
			}
			if tt.scopes != nil && len(tt.scopes) == 0 {
				// resources/subscribe is 2025-11-25's; 2026-07-28 listens.
				st, ct := mcp.NewInMemoryTransports()
				ss, err := srv.Connect(t.Context(), st, nil)
				if err != nil {
					t.Fatal(err)
				}
				old, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
				if err != nil {
					t.Fatal(err)
				}
				if err := old.Subscribe(t.Context(), &mcp.SubscribeParams{URI: "m://secret"}); err == nil || !strings.Contains(err.Error(), "insufficient scope") {
					t.Errorf("subscribing to m://secret without its scope: got %v, want it refused", err)
				}
				old.Close()
				ss.Wait()
			}
		}
	})
	t.Run("http", func(t *testing.T) {
		url, is := serveFeaturesAuth(t, rb)
		token := is.Sign(t, "rsa", is.Claims(url, "notes.read", time.Now()))
		cs := connectAs(t, url, "2026-07-28", token)
		resources, templates := resourceLists(t, cs)
		if resources != "m://open" || templates != "m://public/{name}" {
			t.Errorf("got resources %q and templates %q, want m://open and m://public/{name}", resources, templates)
		}
		for _, c := range []struct{ uri, scope string }{{"m://secret", "notes.write"}, {"m://notes/x", "notes.write notes.read"}} {
			resp := postBody(t, url, "Bearer "+token, `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"`+c.uri+`"}}`)
			if got := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 403 || !strings.Contains(got, `scope="`+c.scope+`", error="insufficient_scope"`) {
				t.Errorf("resources/read %s: got %d %q, want 403 insufficient_scope naming %s", c.uri, resp.StatusCode, got, c.scope)
			}
		}
		if res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "m://public/a"}); err != nil || res.Contents[0].Text != "read m://public/a" {
			t.Errorf("reading m://public/a: got %v, %v; want it read", res, err)
		}
	})
}

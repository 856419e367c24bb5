package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/internal/mcpbridge"
)

// authVsPlain compares a stateless 2026-07-28 tools/call of the echo tool
// through modhost's HTTP endpoint behind an OAuth resource server, with a
// bearer token whose verification the server caches, with the same call
// to the same endpoint without authorization: what checking a token costs
// a call once it is known.
func authVsPlain(ctx context.Context, e *env) (row, error) {
	h, err := e.modHost(ctx)
	if err != nil {
		return row{}, err
	}
	plainURL, stopPlain, err := serveBridge(h, e.tmp)
	if err != nil {
		return row{}, err
	}
	defer stopPlain()

	is, err := mcpauthtest.Start()
	if err != nil {
		return row{}, err
	}
	defer is.Close()
	srv, err := mcpbridge.NewServer(h, &mcpbridge.Options{Workspace: e.tmp})
	if err != nil {
		return row{}, err
	}
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	defer ts.Close()
	resource := ts.URL + mcpbridge.HTTPPath
	auth, err := mcpauth.New(ctx, &mcpauth.Options{Issuer: is.URL, Resource: resource})
	if err != nil {
		return row{}, err
	}
	handler := srv.NewHTTPHandler(&mcpbridge.HTTPOptions{Auth: auth})
	defer handler.Close()
	mux.Handle(mcpbridge.HTTPPath, handler)
	token, err := is.SignToken("rsa", is.Claims(resource, "", time.Now()))
	if err != nil {
		return row{}, err
	}

	a, err := statelessClientWith(ctx, "modhost with a token", resource, &http.Client{Transport: bearer{token}})
	if err != nil {
		return row{}, err
	}
	defer a.Close()
	b, err := statelessClient(ctx, "modhost", plainURL)
	if err != nil {
		return row{}, err
	}
	defer b.Close()
	sa, sb, err := pairCalls(ctx, e.cfg, echoCall("modhost with a token", a), echoCall("modhost", b))
	if err != nil {
		return row{}, err
	}
	return compare("", latencySide("modhost HTTP 2026-07-28, bearer token", sa), latencySide("modhost HTTP 2026-07-28", sb), roundRatios(sa, sb), goal{}), nil
}

// bearer adds a bearer token to each request.
type bearer struct{ token string }

func (b bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(req)
}

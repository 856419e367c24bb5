package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"time"

	"golang.org/x/oauth2"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/internal/mcpbridge"
)

// authVsPlain compares a stateless 2026-07-28 tools/call of the echo tool
// through modhost's HTTP endpoint behind an OAuth resource server, with a
// bearer token whose verification the server caches, with the same call
// to the same endpoint without authorization: what checking a token costs
// a call once it is known. The sides alternate every few calls
// (pairChunked): the cost is a few percent, well under what the load
// changes between two blocks of a second.
func authVsPlain(ctx context.Context, e *env) (row, error) {
	sides, closeAll, err := authSides(ctx, e)
	if err != nil {
		return row{}, err
	}
	defer closeAll()
	sa, sb, err := pairChunked(ctx, e.cfg, sides["token"], sides["plain"])
	if err != nil {
		return row{}, err
	}
	return compare("", latencySide("modhost HTTP 2026-07-28, bearer token", sa), latencySide("modhost HTTP 2026-07-28", sb), roundRatios(sa, sb), goal{}), nil
}

// authSides are the two sides of auth_vs_plain: "token", a go-sdk client
// calling echo with a bearer token through modhost's HTTP endpoint behind
// an OAuth resource server (an issuer on loopback), and "plain", the same
// without authorization.
func authSides(ctx context.Context, e *env) (sides map[string]call, closeAll func(), err error) {
	var closers []func()
	closeAll = func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	defer func() {
		if err != nil {
			closeAll()
		}
	}()
	h, err := e.modHost(ctx)
	if err != nil {
		return nil, nil, err
	}
	plainURL, stopPlain, err := serveBridge(h, e.tmp)
	if err != nil {
		return nil, nil, err
	}
	closers = append(closers, stopPlain)

	is, err := mcpauthtest.Start()
	if err != nil {
		return nil, nil, err
	}
	closers = append(closers, is.Close)
	srv, err := mcpbridge.NewServer(h, &mcpbridge.Options{Workspace: e.tmp})
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	closers = append(closers, ts.Close)
	resource := ts.URL + mcpbridge.HTTPPath
	auth, err := mcpauth.New(ctx, &mcpauth.Options{Issuer: is.URL, Resource: resource})
	if err != nil {
		return nil, nil, err
	}
	handler := srv.NewHTTPHandler(&mcpbridge.HTTPOptions{Auth: auth})
	closers = append(closers, handler.Close)
	mux.Handle(mcpbridge.HTTPPath, handler)
	token, err := is.SignToken("rsa", is.Claims(resource, "", time.Now()))
	if err != nil {
		return nil, nil, err
	}

	a, err := statelessClientAuth(ctx, "modhost with a token", resource, bearer{oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token})})
	if err != nil {
		return nil, nil, err
	}
	closers = append(closers, func() { a.Close() })
	b, err := statelessClient(ctx, "modhost", plainURL)
	if err != nil {
		return nil, nil, err
	}
	closers = append(closers, func() { b.Close() })
	return map[string]call{"token": echoCall("modhost with a token", a), "plain": echoCall("modhost", b)}, closeAll, nil
}

// bearer gives go-sdk's client one bearer token for every request, as
// its OAuth handler would once it holds a token.
type bearer struct{ ts oauth2.TokenSource }

func (b bearer) TokenSource(context.Context) (oauth2.TokenSource, error) { return b.ts, nil }

func (bearer) Authorize(context.Context, *http.Request, *http.Response) error {
	return errors.New("the bearer token was refused")
}

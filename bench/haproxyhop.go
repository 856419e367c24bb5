package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/modkit/modkit/internal/mcpbridge"
)

// haproxyHop measures what HAProxy alone adds to a request on this
// machine, for balanced_vs_direct's note: three bare net/http servers that
// answer every POST with the response a replica gave to the echo call,
// asked straight and through the same HAProxy configuration, by the same
// client. No modkit code runs on either side.
func haproxyHop(ctx context.Context, e *env, bin, replica string) (string, error) {
	rec := &recorder{next: http.DefaultTransport}
	if err := (&rawClient{url: replica, http: &http.Client{Transport: rec}}).checkEcho(ctx, "echo"); err != nil {
		return "", err
	}
	bare := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		w.Header().Set("Content-Type", rec.contentType)
		w.Write(rec.body)
	})
	var urls []string
	for range 3 {
		srv := httptest.NewServer(bare)
		defer srv.Close()
		urls = append(urls, srv.URL+mcpbridge.HTTPPath)
	}
	lbURL, stop, err := startHAProxy(ctx, bin, e.tmp, urls)
	if err != nil {
		return "", err
	}
	defer stop()
	direct := &rawClient{url: urls[0], http: &http.Client{}}
	balanced := &rawClient{url: lbURL, http: &http.Client{}}
	sa, sb, err := pairCalls(ctx, e.cfg,
		func(ctx context.Context) error { return balanced.echo(ctx, "echo") },
		func(ctx context.Context) error { return direct.echo(ctx, "echo") })
	if err != nil {
		return "", err
	}
	via, straight := median(sa.all()), median(sb.all())
	hop := via - straight
	return fmt.Sprintf("HAProxy's own hop on this machine, measured in the same run with bare "+
		"net/http servers that answer with a replica's recorded response: %.0f µs straight, %.0f µs via HAProxy, "+
		"a hop of %.0f µs; a ratio of at most 1.2 needs a direct call of at least %.0f µs",
		straight, via, hop, 5*hop), nil
}

// recorder is a transport that keeps the last response's body and content
// type.
type recorder struct {
	next        http.RoundTripper
	body        []byte
	contentType string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if r.body, err = io.ReadAll(resp.Body); err != nil {
		return nil, err
	}
	r.contentType = resp.Header.Get("Content-Type")
	resp.Body = io.NopCloser(bytes.NewReader(r.body))
	return resp, nil
}

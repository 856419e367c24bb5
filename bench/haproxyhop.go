package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"

	"github.com/modkit/modkit/internal/mcpbridge"
)

// balancedHopVsHAProxy compares the hop HAProxy adds in front of modkit
// replicas with the hop it adds in front of trivial backends, in the same
// run. modkit's hop is the p50 of a plain stateless 2026-07-28 tools/call
// of echo through HAProxy (docs/deploy.md's configuration, written by
// internal/haproxycfg, without its health checks), round-robin over three
// modhost HTTP handlers, less the p50 of the same call straight to one of
// them. HAProxy's bare hop is the same difference with three bare net/http
// servers in their place, which answer every POST with the response a
// replica gave to the echo call, behind the same configuration. Each round
// takes the four targets in turn, ten calls at a time, so that all four
// meet the same load: a hop is the difference of two latencies, which a
// change of load between them would move. The ratio is the median of the
// rounds' ratios of the two hops. It needs haproxy installed.
func balancedHopVsHAProxy(ctx context.Context, e *env) (row, error) {
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		return row{}, err
	}
	h, err := e.modHost(ctx)
	if err != nil {
		return row{}, err
	}
	var replicas []string
	for range 3 {
		url, stop, err := serveBridge(h, e.tmp)
		if err != nil {
			return row{}, err
		}
		defer stop()
		replicas = append(replicas, url)
	}
	modLB, stopModLB, err := startHAProxy(ctx, bin, e.tmp, replicas)
	if err != nil {
		return row{}, err
	}
	defer stopModLB()
	bare, stopBare, err := bareBackends(ctx, replicas[0], 3)
	if err != nil {
		return row{}, err
	}
	defer stopBare()
	bareLB, stopBareLB, err := startHAProxy(ctx, bin, e.tmp, bare)
	if err != nil {
		return row{}, err
	}
	defer stopBareLB()
	echoAt := func(url string) call {
		c := &rawClient{url: url, http: &http.Client{}}
		return func(ctx context.Context) error { return c.echo(ctx, "echo") }
	}
	modVia, modDirect, bareVia, bareDirect := echoAt(modLB), echoAt(replicas[0]), echoAt(bareLB), echoAt(bare[0])
	if err := warmAll(ctx, processWarmup*e.cfg.warmup, modVia, modDirect, bareVia, bareDirect); err != nil {
		return row{}, err
	}
	s, err := chunkedCPU(ctx, e.cfg, metered{fn: modVia}, metered{fn: modDirect}, metered{fn: bareVia}, metered{fn: bareDirect})
	if err != nil {
		return row{}, err
	}
	sMV, sMD, sBV, sBD := s[0], s[1], s[2], s[3]
	mv, md, bv, bd := sMV.roundMedians(), sMD.roundMedians(), sBV.roundMedians(), sBD.roundMedians()
	ratios := make([]float64, len(mv))
	for i := range mv {
		ratios[i] = (mv[i] - md[i]) / (bv[i] - bd[i])
	}
	hop := func(label string, via, direct *sample) side {
		v, d := via.all(), direct.all()
		return side{label: label, unit: "µs", p50: percentile(v, 50) - percentile(d, 50), p99: percentile(v, 99) - percentile(d, 99)}
	}
	r := compare("", hop("HAProxy's hop to 3 modhost replicas", sMV, sMD), hop("its hop to 3 bare servers", sBV, sBD), ratios, goal{})
	r.notes = []string{fmt.Sprintf("p50 straight and via HAProxy: modhost replica %s µs, %s µs; bare server %s µs, %s µs",
		num(percentile(sMD.all(), 50)), num(percentile(sMV.all(), 50)), num(percentile(sBD.all(), 50)), num(percentile(sBV.all(), 50)))}
	return r, nil
}

// bareBackends starts n bare net/http servers that answer every POST with
// the response the modhost replica at URL replica gave to the echo call,
// and returns their /mcp URLs. No modkit code runs in them.
func bareBackends(ctx context.Context, replica string, n int) (urls []string, stop func(), err error) {
	rec := &recorder{next: http.DefaultTransport}
	if err := (&rawClient{url: replica, http: &http.Client{Transport: rec}}).checkEcho(ctx, "echo"); err != nil {
		return nil, nil, err
	}
	bare := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		w.Header().Set("Content-Type", rec.contentType)
		w.Write(rec.body)
	})
	var servers []*httptest.Server
	for range n {
		srv := httptest.NewServer(bare)
		servers = append(servers, srv)
		urls = append(urls, srv.URL+mcpbridge.HTTPPath)
	}
	return urls, func() {
		for _, srv := range servers {
			srv.Close()
		}
	}, nil
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

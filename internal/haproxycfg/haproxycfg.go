package haproxycfg

import (
	"fmt"
	"strings"
)

// Options say what the configuration serves.
type Options struct {
	// Bind is the address the frontend listens on, as HAProxy's bind
	// takes it (":8080", "127.0.0.1:8080").
	Bind string
	// Servers are the replicas' addresses, host:port; they are named r1,
	// r2, … in that order.
	Servers []string
	// Checks asks each replica's GET /readyz every 300 ms; two failures
	// take it out, one success brings it back.
	Checks bool
	// Sticky adds the /sticky/ path, whose backend keeps a 2025-11-25
	// session on the replica that opened it.
	Sticky bool
	// StickyDefault keeps 2025-11-25 sessions on their replica on the
	// default backend (the /mcp path) too: one URL serves both revisions,
	// and a 2026-07-28 request, which carries no Mcp-Session-Id, is still
	// balanced round-robin.
	StickyDefault bool
	// ServedBy names the replica that served each response in an
	// X-Served-By header (tests).
	ServedBy bool
}

// defaults apply to every proxy: keep-alive with the clients, and
// connections to the replicas kept open and shared by every client. A
// request that could not reach a replica (or got nothing back from it)
// is sent to another.
const defaults = `global
	maxconn 2000
defaults
	mode http
	timeout connect 2s
	timeout client 120s
	timeout server 120s
	retries 3
	option redispatch
	retry-on conn-failure empty-response
	timeout check 2s
	option http-keep-alive
	http-reuse always
`

// Config returns the configuration o describes.
func Config(o *Options) string {
	var b strings.Builder
	b.WriteString(defaults)
	fmt.Fprintf(&b, "frontend mcp\n\tbind %s\n", o.Bind)
	if o.Sticky {
		b.WriteString("\tuse_backend sticky if { path_beg /sticky/ }\n")
	}
	b.WriteString("\tdefault_backend replicas\n")
	b.WriteString("backend replicas\n\tbalance roundrobin\n")
	if o.StickyDefault {
		b.WriteString(stickTable)
	}
	o.checks(&b)
	o.servers(&b)
	if o.Sticky {
		b.WriteString("backend sticky\n\tbalance roundrobin\n\thttp-request set-path /mcp\n" + stickTable)
		o.checks(&b)
		o.servers(&b)
	}
	return b.String()
}

// stickTable keeps a session on the replica whose response named it.
const stickTable = "\tstick-table type string len 64 size 100k expire 30m\n" +
	"\tstick match req.hdr(Mcp-Session-Id)\n\tstick store-response res.hdr(Mcp-Session-Id)\n"

// checks writes a backend's health checks, if o asks for them.
func (o *Options) checks(b *strings.Builder) {
	if o.Checks {
		b.WriteString("\toption httpchk GET /readyz\n\thttp-check expect status 200\n\tdefault-server inter 300ms fall 2 rise 1\n")
	}
}

// servers writes a backend's server lines.
func (o *Options) servers(b *strings.Builder) {
	if o.ServedBy {
		b.WriteString("\thttp-response set-header X-Served-By %[srv_name]\n")
	}
	for i, addr := range o.Servers {
		fmt.Fprintf(b, "\tserver r%d %s", i+1, addr)
		if o.Checks {
			b.WriteString(" check")
		}
		b.WriteByte('\n')
	}
}

// Command haproxycfg prints the HAProxy configuration of package haproxycfg,
// for scripts: .ci/conformance.sh runs it to balance its replicas as
// docs/deploy.md does.
//
// Usage:
//
//	go run ./internal/haproxycfg/cmd/haproxycfg -bind ADDR [-checks] [-sticky] [-sticky-default] [-served-by] SERVER...
//
// Each SERVER is a replica's host:port.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/modkit/modkit/internal/haproxycfg"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "haproxycfg:", err)
		os.Exit(1)
	}
}

// errUsage is a usage error, already reported on stderr.
var errUsage = errors.New("usage")

// run writes to stdout the configuration that args describe.
func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("haproxycfg", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: haproxycfg -bind ADDR [-checks] [-sticky] [-sticky-default] [-served-by] SERVER...")
		fs.PrintDefaults()
	}
	var o haproxycfg.Options
	fs.StringVar(&o.Bind, "bind", "", "the address the frontend listens on (127.0.0.1:8080, :8080)")
	fs.BoolVar(&o.Checks, "checks", false, "take out a replica whose GET /readyz fails")
	fs.BoolVar(&o.Sticky, "sticky", false, "add the /sticky/ path, which keeps a session on its replica")
	fs.BoolVar(&o.StickyDefault, "sticky-default", false, "keep sessions on their replica on the /mcp path too")
	fs.BoolVar(&o.ServedBy, "served-by", false, "name the replica that served each response in X-Served-By")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	o.Servers = fs.Args()
	var why string
	switch {
	case o.Bind == "":
		why = "-bind is required"
	case len(o.Servers) == 0:
		why = "name at least one SERVER (host:port)"
	}
	for _, s := range o.Servers {
		if i := strings.LastIndexByte(s, ':'); why == "" && (i <= 0 || i == len(s)-1) {
			why = fmt.Sprintf("server %q: want host:port", s)
		}
	}
	if why != "" {
		fmt.Fprintln(stderr, "haproxycfg:", why)
		fs.Usage()
		return errUsage
	}
	_, err := io.WriteString(stdout, haproxycfg.Config(&o))
	return err
}

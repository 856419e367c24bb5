package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpbridge"
	"github.com/modkit/modkit/internal/uritemplate"
)

// runRead reads a resource, by its URI or a template's with its
// variables, and prints its text, or a note on a binary one.
func runRead(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("read", flag.ContinueOnError)
	sessionID := fs.String("session", "", "session id")
	out := fs.String("out", "", "write the contents, text or binary, to `FILE` instead of stdout")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() < 1 {
		return e.fail(usagef("read: want URI, or URI_TEMPLATE NAME=VALUE..."))
	}
	vars, err := nameValues("read "+fs.Arg(0), "variable", fs.Args()[1:])
	if err != nil {
		return e.fail(err)
	}
	h, err := e.load()
	if err != nil {
		return e.fail(err)
	}
	defer h.Close()
	uri, err := expand(h, fs.Arg(0), vars)
	if err != nil {
		return e.fail(err)
	}
	declared, ok := declaredMIME(h, uri)
	if !ok {
		return e.fail(usagef("read %s: no loaded mod has a resource at this URI; modhost list resources lists the resources and templates", uri))
	}
	if missing := missingScopes(e.scopes, mcpbridge.NewResourceScopes(h.Resources(), h.ResourceTemplates()).Need(uri)); len(missing) > 0 {
		return e.fail(fmt.Errorf("read %s: the resource needs the scopes %s, which --scopes does not grant", uri, strings.Join(missing, " ")))
	}
	res, err := h.ReadResource(ctx, uri, e.session(*sessionID))
	switch {
	case errors.Is(err, host.ErrResourceNotFound):
		return e.fail(fmt.Errorf("read %s: not found: the mod has no such resource", uri))
	case err != nil:
		return e.fail(err)
	}
	mime := res.MIMEType
	if mime == "" {
		mime = declared
	}
	data := []byte(res.Text)
	if res.Blob != nil {
		data = res.Blob
	}
	switch {
	case *out != "":
		if err := os.WriteFile(*out, data, 0o644); err != nil {
			return e.fail(fmt.Errorf("read %s: %v", uri, err))
		}
		fmt.Fprintf(e.stderr, "modhost: wrote %s (%s, %d bytes) to %s\n", uri, orUnknown(mime), len(data), *out)
	case res.Blob != nil:
		fmt.Fprintf(e.stdout, "%s is binary: %s, %d bytes; --out FILE writes it\n", uri, orUnknown(mime), len(data))
	default:
		writeLines(e.stdout, res.Text)
	}
	return exitOK
}

func orUnknown(mime string) string {
	if mime == "" {
		return "no MIME type"
	}
	return mime
}

// nameValues parses NAME=VALUE arguments of what, each name once.
func nameValues(what, kind string, args []string) (map[string]string, error) {
	vals := map[string]string{}
	for _, a := range args {
		name, value, ok := strings.Cut(a, "=")
		if !ok || name == "" {
			return nil, usagef("%s: %q is not NAME=VALUE", what, a)
		}
		if _, dup := vals[name]; dup {
			return nil, usagef("%s: %s %s is given twice", what, kind, name)
		}
		vals[name] = value
	}
	return vals, nil
}

// expand returns the URI of the loaded template tmpl with vars; tmpl
// itself when it is no template and vars are none.
func expand(h *host.Host, tmpl string, vars map[string]string) (string, error) {
	for _, t := range h.ResourceTemplates() {
		if t.URITemplate != tmpl {
			continue
		}
		parsed, err := uritemplate.Parse(t.URITemplate)
		if err != nil {
			return "", fmt.Errorf("read %s: %v", tmpl, err)
		}
		uri, err := parsed.Expand(vars)
		if err != nil {
			return "", usagef("read: %v", err)
		}
		return uri, nil
	}
	if len(vars) == 0 {
		return tmpl, nil
	}
	return "", usagef("read %s: no loaded mod has this resource template; modhost list resources lists them", tmpl)
}

// declaredMIME returns the MIME type declared for the resource at uri, or
// for the template it matches, in the order the host matches them; false
// when no loaded mod has it.
func declaredMIME(h *host.Host, uri string) (string, bool) {
	for _, r := range h.Resources() {
		if r.URI == uri {
			return r.MIMEType, true
		}
	}
	for _, t := range h.ResourceTemplates() {
		if parsed, err := uritemplate.Parse(t.URITemplate); err == nil {
			if _, ok := parsed.Match(uri); ok {
				return t.MIMEType, true
			}
		}
	}
	return "", false
}

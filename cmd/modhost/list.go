package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/manifest"
)

type listedTool struct {
	Name        string `json:"name"`
	Mod         string `json:"mod"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	// Unavailable says why the tool's mod cannot run, when it cannot.
	Unavailable string `json:"unavailable,omitempty"`
	// Runs is "client" for a tool only a client application runs, which
	// modhost cannot call, and "either" for one it calls in its mod.
	Runs string `json:"runs,omitempty"`
	// Approval is when a call waits for a person's approval: "always",
	// or "byInput" when the mod decides from the input.
	Approval string `json:"approval,omitempty"`
	// Scopes are the OAuth scopes a caller must hold to see and call the
	// tool over authorized HTTP; absent when it needs none.
	Scopes []string `json:"scopes,omitempty"`
	// Permissions are what the tool's mod declares it may do beyond
	// reading the workspace, one a line; absent when it declares nothing.
	Permissions []string `json:"permissions,omitempty"`
}

func runList(_ context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	what := "tools"
	if fs.NArg() > 0 {
		what = fs.Arg(0)
	}
	switch {
	case fs.NArg() > 1:
		return e.fail(usagef("list: unexpected argument %q", fs.Arg(1)))
	case what != "tools" && what != "prompts" && what != "resources":
		return e.fail(usagef("list: unexpected argument %q; list tools, prompts or resources", what))
	}
	h, err := e.load()
	if err != nil {
		return e.fail(err)
	}
	defer h.Close()
	switch what {
	case "prompts":
		return listPrompts(e, h, *asJSON)
	case "resources":
		return listResources(e, h, *asJSON)
	}
	tools, err := h.Tools(e.agent)
	if err != nil {
		return e.fail(err)
	}
	tools = slices.DeleteFunc(tools, func(t host.Tool) bool { return len(missingScopes(e.scopes, t.Scopes)) > 0 })
	// Load wrote why each mod it found unavailable cannot run on stderr;
	// the list marks their tools, and those of mods known not to build.
	unavailable := map[string]string{}
	for _, u := range h.CheckBuilds() {
		if u.Mod != "" {
			unavailable[u.Mod] = "unavailable: " + u.Reason
		}
	}
	perms := map[string]*manifest.Permissions{}
	for _, m := range h.Mods() {
		perms[m.ID] = m.Permissions
	}
	if *asJSON {
		out := make([]listedTool, 0, len(tools))
		for _, t := range tools {
			lt := listedTool{Name: t.Name, Mod: t.Mod, Kind: string(t.Kind), Description: t.Description, Unavailable: unavailable[t.Mod], Runs: string(t.Runs)}
			if t.Approval != nil {
				lt.Approval = string(t.Approval.When)
			}
			lt.Scopes = t.Scopes
			if p := perms[t.Mod]; !p.IsZero() {
				lt.Permissions = p.Lines()
			}
			out = append(out, lt)
		}
		data, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", data)
		return listStatus(h)
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.DiscardEmptyColumns)
	for _, t := range tools {
		desc := firstLine(t.Description)
		if u := unavailable[t.Mod]; u != "" {
			desc = u
		}
		desc = runsMark(t.Runs) + desc
		if t.Approval != nil {
			desc = "(asks for approval) " + desc
		}
		desc = scopeWords(t.Scopes) + desc
		fmt.Fprintf(w, "%s\t%s\t%s\n", t.Name, t.Mod, desc)
	}
	w.Flush()
	writePermissions(e.stdout, h.Mods(), tools)
	if why := h.Unconfined(); why != nil && len(tools) > 0 {
		fmt.Fprintf(e.stdout, "\nnot enforced here: %v (modhost sandbox shows each limit)\n", why)
	}
	return listStatus(h)
}

// writePermissions lists what the mods of the listed tools declare they may
// do beyond reading the workspace, for the mods that declare something.
func writePermissions(out io.Writer, mods []*manifest.Manifest, tools []host.Tool) {
	listed := map[string]bool{}
	for _, t := range tools {
		listed[t.Mod] = true
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	header := false
	for _, m := range mods {
		if !listed[m.ID] || m.Permissions.IsZero() {
			continue
		}
		if !header {
			fmt.Fprintf(w, "\nmods that may do more than read the workspace:\n")
			header = true
		}
		fmt.Fprintf(w, "  %s\t%s\n", m.ID, m.Permissions.Summary())
	}
	w.Flush()
}

// listStatus fails a list when a mod cannot run, so scripts notice.
func listStatus(h *host.Host) int {
	if len(h.Unavailable()) > 0 {
		return exitFailed
	}
	return exitOK
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

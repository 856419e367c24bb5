package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
)

type listedTool struct {
	Name        string `json:"name"`
	Mod         string `json:"mod"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
}

func runList(_ context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() > 0 {
		return e.fail(usagef("list: unexpected argument %q", fs.Arg(0)))
	}
	h, err := e.load()
	if err != nil {
		return e.fail(err)
	}
	defer h.Close()
	tools, err := h.Tools(e.agent)
	if err != nil {
		return e.fail(err)
	}
	if *asJSON {
		out := make([]listedTool, 0, len(tools))
		for _, t := range tools {
			out = append(out, listedTool{Name: t.Name, Mod: t.Mod, Kind: string(t.Kind), Description: t.Description})
		}
		data, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", data)
		return exitOK
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.DiscardEmptyColumns)
	for _, t := range tools {
		fmt.Fprintf(w, "%s\t%s\t%s\n", t.Name, t.Mod, firstLine(t.Description))
	}
	w.Flush()
	return exitOK
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

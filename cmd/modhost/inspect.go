package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/modkit/modkit/internal/schemaview"
	"github.com/modkit/modkit/manifest"
)

func runInspect(_ context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the manifests as JSON")
	asMarkdown := fs.Bool("markdown", false, "print a Markdown reference of the tools, commands, slash commands, hooks and agents")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if *asJSON && *asMarkdown {
		return e.fail(usagef("inspect: --json and --markdown exclude each other"))
	}
	if fs.NArg() > 1 {
		return e.fail(usagef("inspect: want at most one MOD"))
	}
	h, err := e.load()
	if err != nil {
		return e.fail(err)
	}
	defer h.Close()
	mods := h.Mods()
	if fs.NArg() == 1 {
		var ids []string
		var picked []*manifest.Manifest
		for _, m := range mods {
			ids = append(ids, m.ID)
			if m.ID == fs.Arg(0) {
				picked = append(picked, m)
			}
		}
		if len(picked) == 0 {
			return e.fail(usagef("inspect: no mod %q; mods: %s", fs.Arg(0), strings.Join(ids, ", ")))
		}
		mods = picked
	}
	switch {
	case *asJSON:
		var v any = mods
		if fs.NArg() == 1 {
			v = mods[0]
		}
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return e.fail(err)
		}
		fmt.Fprintf(e.stdout, "%s\n", data)
	case *asMarkdown:
		writeMarkdown(e.stdout, mods)
	default:
		for i, m := range mods {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			writeText(e.stdout, m)
		}
	}
	return exitOK
}

func writeText(out io.Writer, m *manifest.Manifest) {
	name := m.ID
	if m.DisplayName != "" && m.DisplayName != m.ID {
		name += " (" + m.DisplayName + ")"
	}
	fmt.Fprintf(out, "mod %s\n", name)
	if m.Description != "" {
		fmt.Fprintf(out, "  %s\n", m.Description)
	}
	fmt.Fprintf(out, "  package %s\n", m.GoPackage)
	fmt.Fprintf(out, "  permissions: %s\n", m.Permissions.Summary())
	fmt.Fprintf(out, "\ntools:\n")
	if len(m.Tools) == 0 {
		fmt.Fprintf(out, "  (none)\n")
	}
	for _, t := range m.Tools {
		fmt.Fprintf(out, "  %s (%s)\n", t.Name, t.Kind)
		if t.Title != "" {
			fmt.Fprintf(out, "    title: %s\n", t.Title)
		}
		fmt.Fprintf(out, "    %s\n", t.Description)
		if t.Activity != "" {
			fmt.Fprintf(out, "    activity: %s\n", t.Activity)
		}
		if t.Annotations != nil {
			fmt.Fprintf(out, "    annotations: %s\n", annotationWords(t.Annotations))
		}
		if t.Approval != nil {
			fmt.Fprintf(out, "    approval: %s\n", approvalWords(t.Approval))
		}
		if len(t.Scopes) > 0 {
			fmt.Fprintf(out, "    scopes: %s\n", strings.Join(t.Scopes, " "))
		}
		if t.HasView {
			fmt.Fprintf(out, "    has a view\n")
		}
		if w := runsWords(t.Runs); w != "" {
			fmt.Fprintf(out, "    runs: %s\n", w)
		}
		writeTree(out, "input", t.InputSchema)
		if len(t.ResultSchema) > 0 {
			writeTree(out, "result", t.ResultSchema)
		}
		for _, k := range m.ToolClientActions(t) {
			writeTree(out, fmt.Sprintf("client action %s (%s)", k.Kind, k.Description), k.ParamsSchema)
		}
	}
	if len(m.Commands) > 0 {
		fmt.Fprintf(out, "\ncommands:\n")
		for _, c := range m.Commands {
			fmt.Fprintf(out, "  %s: %s\n", c.ID, c.Title)
			writeScopes(out, c.Scopes)
		}
	}
	writeFeatures(out, m)
	if len(m.Hooks) > 0 {
		fmt.Fprintf(out, "\nhooks:\n")
		for _, hk := range m.Hooks {
			fmt.Fprintf(out, "  before %s\n", hk.BeforeAction)
		}
	}
	if len(m.Agents) > 0 {
		fmt.Fprintf(out, "\nagents:\n")
		for _, a := range m.Agents {
			fmt.Fprintf(out, "  %s: %s\n", a.Name, a.Description)
			tools := "(no tools)"
			if len(a.Tools) > 0 {
				tools = strings.Join(a.Tools, ", ")
			}
			fmt.Fprintf(out, "    may call: %s\n", tools)
		}
	}
}

func writeTree(out io.Writer, label string, schema json.RawMessage) {
	v := schemaview.Of(schema)
	fs, typ := v.Fields, v.Type
	if len(fs) == 0 {
		if typ == "object" {
			fmt.Fprintf(out, "    %s: (no fields)\n", label)
		} else {
			fmt.Fprintf(out, "    %s: %s\n", label, typ)
		}
		return
	}
	fmt.Fprintf(out, "    %s:\n", label)
	var buf strings.Builder
	w := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	for _, f := range fs {
		fmt.Fprintf(w, "      %s%s\t%s\t%s\t%s\n", strings.Repeat("  ", f.Depth), f.Name, f.Type, f.RequiredWord(), f.Describe())
	}
	w.Flush()
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if line != "" {
			fmt.Fprintln(out, strings.TrimRight(line, " \n"))
		}
	}
}

// writeMarkdown writes the mods' reference: per mod, its tools with their
// fields, then its commands, slash commands, hooks and agents.
func writeMarkdown(out io.Writer, mods []*manifest.Manifest) {
	fmt.Fprintf(out, "# Mods reference\n")
	for _, m := range mods {
		title := m.ID
		if m.DisplayName != "" {
			title = m.DisplayName + " (`" + m.ID + "`)"
		}
		fmt.Fprintf(out, "\n## %s\n", title)
		if m.Description != "" {
			fmt.Fprintf(out, "\n%s\n", m.Description)
		}
		fmt.Fprintf(out, "\nGo package: `%s`.\n", m.GoPackage)
		fmt.Fprintf(out, "\nPermissions: %s.\n", m.Permissions.Summary())
		if len(m.Tools) > 0 {
			fmt.Fprintf(out, "\n### Tools\n")
		}
		for _, t := range m.Tools {
			markdownTool(out, m, t)
		}
		markdownCommands(out, m)
		markdownHooks(out, m)
		markdownAgents(out, m)
	}
}

// markdownTool writes one tool's section.
func markdownTool(out io.Writer, m *manifest.Manifest, t manifest.Tool) {
	fmt.Fprintf(out, "\n#### `%s`\n\n%s\n", t.Name, t.Description)
	kind := string(t.Kind)
	if t.HasView {
		kind += ", with a view"
	}
	fmt.Fprintf(out, "\nKind: %s.", kind)
	if t.Title != "" {
		fmt.Fprintf(out, " Title: %s.", t.Title)
	}
	if t.Activity != "" {
		fmt.Fprintf(out, " Activity: %s", t.Activity)
	}
	if t.Annotations != nil {
		fmt.Fprintf(out, " Annotations: %s.", annotationWords(t.Annotations))
	}
	if t.Approval != nil {
		fmt.Fprintf(out, " Approval: %s.", approvalWords(t.Approval))
	}
	if len(t.Scopes) > 0 {
		fmt.Fprintf(out, " Scopes: %s.", strings.Join(t.Scopes, " "))
	}
	if w := runsWords(t.Runs); w != "" {
		fmt.Fprintf(out, " Runs: %s.", w)
	}
	fmt.Fprintln(out)
	markdownTable(out, "Input", t.InputSchema)
	if len(t.ResultSchema) > 0 {
		markdownTable(out, "Result", t.ResultSchema)
	}
	for _, k := range m.ToolClientActions(t) {
		markdownTable(out, fmt.Sprintf("Client action `%s`: %s Params", k.Kind, mdEscape(k.Description)), k.ParamsSchema)
	}
}

// markdownCommands writes the mod's commands and slash commands, with how
// to run them.
func markdownCommands(out io.Writer, m *manifest.Manifest) {
	if len(m.Commands) > 0 {
		fmt.Fprintf(out, "\n### Commands\n\nRun with `modhost command ID [ARGS_JSON]`.\n\n| Command | Title |\n| --- | --- |\n")
		for _, c := range m.Commands {
			fmt.Fprintf(out, "| `%s` | %s |\n", c.ID, mdEscape(c.Title))
		}
	}
	if len(m.SlashCommands) > 0 {
		fmt.Fprintf(out, "\n### Slash commands\n\nRun with `modhost slash ID [TEXT...]`.\n\n| Slash command | Description |\n| --- | --- |\n")
		for _, c := range m.SlashCommands {
			fmt.Fprintf(out, "| `/%s` | %s |\n", c.ID, mdEscape(c.Description))
		}
	}
}

// markdownHooks writes the actions the mod's hooks run before.
func markdownHooks(out io.Writer, m *manifest.Manifest) {
	if len(m.Hooks) == 0 {
		return
	}
	fmt.Fprintf(out, "\n### Hooks\n\nA hook may refuse the action it runs before.\n\n")
	for _, hk := range m.Hooks {
		fmt.Fprintf(out, "- Before %s.\n", hookActionWords(hk.BeforeAction))
	}
}

// hookActionWords says what a hook runs before: "every tool call".
func hookActionWords(action string) string {
	switch action {
	case manifest.ActionToolCall:
		return "every tool call (`" + action + "`)"
	case manifest.ActionCommandRun:
		return "every command (`" + action + "`)"
	}
	if id, ok := strings.CutPrefix(action, "command:"); ok {
		return "command `" + id + "`"
	}
	return "`" + action + "`"
}

// markdownAgents writes the mod's agents and the tools each may call.
func markdownAgents(out io.Writer, m *manifest.Manifest) {
	if len(m.Agents) == 0 {
		return
	}
	fmt.Fprintf(out, "\n### Agents\n\nCall as an agent with `modhost --agent NAME`; it may call only the tools it lists.\n\n| Agent | Description | May call |\n| --- | --- | --- |\n")
	for _, a := range m.Agents {
		tools := "no tools"
		if len(a.Tools) > 0 {
			tools = "`" + strings.Join(a.Tools, "`, `") + "`"
		}
		fmt.Fprintf(out, "| `%s` | %s | %s |\n", a.Name, mdEscape(a.Description), tools)
	}
}

// annotationWords says a tool's annotations in words: "read-only,
// idempotent, closed-world".
func annotationWords(a *manifest.Annotations) string {
	var words []string
	if a.ReadOnly {
		words = append(words, "read-only")
	} else if a.Destructive {
		words = append(words, "destructive")
	} else {
		words = append(words, "additive")
	}
	if a.Idempotent {
		words = append(words, "idempotent")
	}
	if a.OpenWorld {
		words = append(words, "open-world")
	} else {
		words = append(words, "closed-world")
	}
	return strings.Join(words, ", ")
}

func markdownTable(out io.Writer, label string, schema json.RawMessage) {
	v := schemaview.Of(schema)
	fs, typ := v.Fields, v.Type
	if len(fs) == 0 {
		if typ == "object" {
			fmt.Fprintf(out, "\n%s: no fields.\n", label)
		} else {
			fmt.Fprintf(out, "\n%s: `%s`.\n", label, typ)
		}
		return
	}
	fmt.Fprintf(out, "\n%s:\n\n| Field | Type | Required | Description |\n| --- | --- | --- | --- |\n", label)
	for _, f := range fs {
		fmt.Fprintf(out, "| `%s` | `%s` | %s | %s |\n", f.Path, mdEscape(f.Type), yesNo(f.Required), mdEscape(f.Describe()))
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// approvalWords says when a tool needs a person's approval.
func approvalWords(a *manifest.Approval) string {
	if a.When == manifest.ApprovalAlways {
		return "every call (" + strings.TrimSuffix(a.Reason, ".") + ")"
	}
	return "asked per call, as the input decides"
}

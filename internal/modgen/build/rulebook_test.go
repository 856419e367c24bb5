package build

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/internal/testenv"
	"github.com/modkit/modkit/manifest"
)

// rulebookCases break each of manifest's rules once. In each, « marks
// where modgen must report the problem: the literal, or its field.
var rulebookCases = map[string]string{
	"mod-id":                       `Metadata: sdk.Metadata{ID: «"Bad Mod"},`,
	"tool-name":                    `AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[In]{Name: «"BadName", Description: "D. Use this when asked.", Run: run}}},`,
	"tool-name-unique":             `AI: sdk.AI{Tools: []sdk.Tool{tool, sdk.PlainTool[In]{Name: «"t", Description: "D. Use this when asked.", Run: run}}},`,
	"tool-description":             `AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[In]{Name: "t", Description: «" ", Run: run}}},`,
	"tool-approval":                `AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[In]{Name: "t", Description: "D. Use this when asked.", Run: run, Approval: «&sdk.Approval[In]{Reason: " "}}}},`,
	"tool-client-actions-once":     `AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[In]{Name: "t", Description: "D. Use this when asked.", Run: run, ClientActions: []sdk.ClientActionType{open, «open}}}},`,
	"tool-scope":                   `AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[In]{Name: "t", Description: "D. Use this when asked.", Run: run, Scopes: []string{"notes.write", «"notes write"}}}},`,
	"slash-scope":                  `SlashCommands: []sdk.SlashCommand{{ID: "s", Description: "D.", Run: ask, Scopes: []string{«""}}},`,
	"command-id":                   `Commands: []sdk.Command{{ID: «"Stats", Title: "Stats", Run: stats}},`,
	"command-id-unique":            `Commands: []sdk.Command{{ID: "stats", Title: "Stats", Run: stats}, {ID: «"stats", Title: "Again", Run: stats}},`,
	"command-title":                `Commands: []sdk.Command{«{ID: "stats", Run: stats}},`,
	"command-scope":                `Commands: []sdk.Command{{ID: "stats", Title: "Stats", Run: stats, Scopes: []string{"a", «"a"}}},`,
	"slash-id":                     `SlashCommands: []sdk.SlashCommand{{ID: «"a/b", Description: "D.", Run: ask}},`,
	"slash-id-unique":              `SlashCommands: []sdk.SlashCommand{{ID: "ask", Description: "D.", Run: ask}, {ID: «"ask", Description: "D.", Run: ask}},`,
	"slash-description":            `SlashCommands: []sdk.SlashCommand{«{ID: "ask", Run: ask}},`,
	"argument-name":                `SlashCommands: []sdk.SlashCommand{{ID: "ask", Description: "D.", Run: ask, Arguments: []sdk.PromptArgument{{Name: «"2nd"}}}},`,
	"argument-unique":              `SlashCommands: []sdk.SlashCommand{{ID: "ask", Description: "D.", Run: ask, Arguments: []sdk.PromptArgument{{Name: "a"}, {Name: «"a"}}}},`,
	"argument-order":               `SlashCommands: []sdk.SlashCommand{{ID: "ask", Description: "D.", Run: ask, Arguments: []sdk.PromptArgument{{Name: "a"}, {Name: «"b", Required: true}}}},`,
	"hook-target":                  `Hooks: []sdk.Hook{{BeforeAction: «"file.write", Run: allow}},`,
	"agent-name":                   `Agents: []sdk.Agent{{Name: «"Chef"}},`,
	"agent-name-unique":            `Agents: []sdk.Agent{{Name: "chef"}, {Name: «"chef"}},`,
	"agent-tools":                  `Agents: []sdk.Agent{{Name: "chef", Tools: []string{«""}}},`,
	"client-action-kind":           `AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[In]{Name: "t", Description: "D. Use this when asked.", Run: run, ClientActions: []sdk.ClientActionType{sdk.ClientActionKind[In]{Kind: «"OpenFile", Description: "D."}}}}},`,
	"client-action-description":    `AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[In]{Name: "t", Description: "D. Use this when asked.", Run: run, ClientActions: []sdk.ClientActionType{sdk.ClientActionKind[In]{Kind: "open_file", Description: «" "}}}}},`,
	"resource-uri":                 `Resources: []sdk.Resource{{URI: «"notes", Name: "n", Description: "D.", Read: read}},`,
	"resource-uri-unique":          `Resources: []sdk.Resource{{URI: "m://a", Name: "a", Description: "D.", Read: read}, {URI: «"m://a", Name: "b", Description: "D.", Read: read}},`,
	"resource-template-uri":        `ResourceTemplates: []sdk.ResourceTemplate{{URITemplate: «"m://{a}{b}", Name: "t", Description: "D.", Read: readT}},`,
	"resource-template-uri-unique": `ResourceTemplates: []sdk.ResourceTemplate{{URITemplate: "m://{a}", Name: "t", Description: "D.", Read: readT}, {URITemplate: «"m://{a}", Name: "u", Description: "D.", Read: readT}},`,
	"resource-name":                `Resources: []sdk.Resource{{URI: "m://a", Name: «"a b", Description: "D.", Read: read}},`,
	"resource-name-unique":         `Resources: []sdk.Resource{{URI: "m://a", Name: "a", Description: "D.", Read: read}}, ResourceTemplates: []sdk.ResourceTemplate{{URITemplate: "m://{x}", Name: «"a", Description: "D.", Read: readT}},`,
	"resource-scope":               `Resources: []sdk.Resource{{URI: "m://a", Name: "a", Description: "D.", Read: read, Scopes: []string{«"a b"}}},`,
	"resource-description":         `Resources: []sdk.Resource{«{URI: "m://a", Name: "a", Read: read}},`,
	"resource-mime-type":           `Resources: []sdk.Resource{{URI: "m://a", Name: "a", Description: "D.", MIMEType: «"plain", Read: read}},`,
}

const rulebookMod = `// Package %[1]s breaks the rule %[2]s.
package %[1]s

import (
	"context"
	"encoding/json"

	"github.com/modkit/modkit/sdk"
)

type In struct {
	Text string ` + "`json:\"text\"`" + `
}

var tool = sdk.PlainTool[In]{Name: "t", Description: "Does t. Use this when asked.", Activity: "Doing…", Run: run}

var open = sdk.ClientActionKind[In]{Kind: "open", Description: "Opens."}

var Mod = sdk.DefineMod(sdk.Mod{
	%[3]s
})

func run(*sdk.ToolContext, In) (sdk.Result, error) { return sdk.Text(""), nil }

func stats(context.Context, *sdk.Env, json.RawMessage) (string, error) { return "", nil }

func ask(context.Context, *sdk.Env, string) (string, error) { return "", nil }

func allow(context.Context, *sdk.Env, sdk.Action) error { return nil }

func read(context.Context, *sdk.Env, string) (sdk.ResourceContents, error) {
	return sdk.ResourceContents{}, nil
}

func readT(context.Context, *sdk.Env, string, map[string]string) (sdk.ResourceContents, error) {
	return sdk.ResourceContents{}, nil
}

var _, _, _ = tool, open, json.Valid
`

// TestRulebook breaks every rule manifest declares, one mod each, and
// checks modgen refuses the mod with an error at the literal that breaks
// it: a rule manifest.Validate applies and modgen misses would let a mod
// generate that the host then refuses. A new rule needs a case here.
func TestRulebook(t *testing.T) {
	t.Parallel()
	dir := testenv.ModuleDir(t)
	write := func(name, data string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	type want struct{ file, at string }
	wants := map[string]want{} // package name → where the error must be
	pkgOf := map[string]string{}
	for i, r := range manifest.Rules() {
		src, ok := rulebookCases[r.Name]
		if !ok {
			t.Errorf("rule %s (%s) has no case: add one to rulebookCases that breaks it", r.Name, r.Doc)
			continue
		}
		pkg := fmt.Sprintf("r%d", i)
		body := fmt.Sprintf(rulebookMod, pkg, r.Name, src)
		mark := strings.Index(body, "«")
		if mark < 0 {
			t.Fatalf("rule %s: the case has no « marking where the error goes", r.Name)
		}
		line := strings.Count(body[:mark], "\n") + 1
		col := mark - strings.LastIndex(body[:mark], "\n")
		body = strings.Replace(body, "«", "", 1)
		file := filepath.Join(dir, pkg, pkg+".go")
		write(filepath.Join(pkg, pkg+".go"), body)
		wants[pkg] = want{file, fmt.Sprintf("%s:%d:%d", file, line, col)}
		pkgOf[pkg] = r.Name
	}
	for name := range rulebookCases {
		if !ruleNamed(name) {
			t.Errorf("rulebookCases has %s, which manifest does not declare", name)
		}
	}
	if len(wants) == 0 {
		t.FailNow()
	}

	pkgs, diags, err := load.Packages(dir, "./...")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		t.Errorf("load: %s", d.Format(""))
	}
	for _, pkg := range pkgs {
		w, ok := wants[pkg.Name]
		if !ok {
			continue
		}
		delete(wants, pkg.Name)
		rule := pkgOf[pkg.Name]
		out, diags := Mod(pkg)
		if out != nil {
			t.Errorf("rule %s: modgen generated the mod, want it refused", rule)
		}
		var got []string
		found := false
		for _, d := range diags {
			got = append(got, d.Format(""))
			if !d.Warning && fmt.Sprintf("%s:%d:%d", d.Pos.Filename, d.Pos.Line, d.Pos.Column) == w.at {
				found = true
			}
		}
		if !found {
			t.Errorf("rule %s: got diagnostics\n\t%s\nwant an error at %s", rule, strings.Join(got, "\n\t"), strings.TrimPrefix(w.at, dir+string(filepath.Separator)))
		}
	}
	for pkg := range wants {
		t.Errorf("rule %s: package %s did not load", pkgOf[pkg], pkg)
	}
}

func ruleNamed(name string) bool {
	for _, r := range manifest.Rules() {
		if r.Name == name {
			return true
		}
	}
	return false
}

package mcpbridge_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/manifest"
)

// TestToolIcons lists the example mods' tools at both protocol revisions
// that have icons: a tool with icons of its own lists them, the others
// their mod's, each the embedded image of the example's file.
func TestToolIcons(t *testing.T) {
	t.Parallel()
	examples := filepath.Join("..", "..", "examples")
	h := loadHost(t, filepath.Join(examples, "research"), filepath.Join(examples, "dependencies"))
	image := func(mod, file string) string { return exampleImage(t, mod, file) }
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connectVersion(t, h, nil, version)
		res, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tools) == 0 {
			t.Fatalf("%s: no tools listed", version)
		}
		for _, tool := range res.Tools {
			// What a client reads: the tool's icons as JSON, with nothing
			// beside src, mimeType, sizes and theme.
			raw, err := json.Marshal(tool.Icons)
			if err != nil {
				t.Fatal(err)
			}
			var icons []manifest.Icon
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&icons); err != nil {
				t.Errorf("%s: %s: icons %s: %v", version, tool.Name, raw, err)
				continue
			}
			if len(icons) != 1 {
				t.Errorf("%s: %s: got %d icons, want 1", version, tool.Name, len(icons))
				continue
			}
			mod, file := strings.Split(tool.Name, "_")[0], "icon.svg"
			if tool.Name == "research_save_note" {
				file = "note.svg"
			}
			ic := icons[0]
			if want := image(mod, file); ic.Src != want {
				t.Errorf("%s: %s: icon src %.60q…, want %s/%s as %.60q…", version, tool.Name, ic.Src, mod, file, want)
			}
			if ic.MIMEType != "image/svg+xml" || len(ic.Sizes) != 1 || ic.Sizes[0] != "any" {
				t.Errorf("%s: %s: icon type %q sizes %q, want image/svg+xml [any]", version, tool.Name, ic.MIMEType, ic.Sizes)
			}
			if msg := manifest.CheckIcon(ic); msg != "" {
				t.Errorf("%s: %s: %s", version, tool.Name, msg)
			}
		}
	}
}

// TestFeatureIcons lists the example mods' prompts, resources and
// resource templates: research's note template has its own icon, the
// others their mod's.
func TestFeatureIcons(t *testing.T) {
	t.Parallel()
	examples := filepath.Join("..", "..", "examples")
	h := loadHost(t, filepath.Join(examples, "research"), filepath.Join(examples, "dependencies"))
	image := func(mod, file string) string { return exampleImage(t, mod, file) }
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connectVersion(t, h, nil, version)
		got := map[string][]mcp.Icon{}
		prompts, err := cs.ListPrompts(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range prompts.Prompts {
			got["prompt "+p.Name] = p.Icons
		}
		resources, err := cs.ListResources(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range resources.Resources {
			got["resource "+r.URI] = r.Icons
		}
		templates, err := cs.ListResourceTemplates(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range templates.ResourceTemplates {
			got["template "+r.URITemplate] = r.Icons
		}
		want := map[string]string{
			"prompt summarize":                 image("research", "icon.svg"),
			"resource research://notes/index":  image("research", "icon.svg"),
			"template research://notes/{path}": image("research", "note.svg"),
		}
		for what, src := range want {
			icons, ok := got[what]
			if !ok {
				t.Errorf("%s: %s not listed; listed %v", version, what, keys(got))
				continue
			}
			if len(icons) != 1 || icons[0].Source != src || icons[0].MIMEType != "image/svg+xml" {
				t.Errorf("%s: %s: got icons %+v, want one of src %.60q…", version, what, icons, src)
			}
		}
		for what, icons := range got {
			if len(icons) == 0 {
				t.Errorf("%s: %s has no icons, want its own or its mod's", version, what)
			}
		}
	}
}

// exampleImage is the data: URI of an example mod's SVG file.
func exampleImage(t *testing.T, mod, file string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", mod, file))
	if err != nil {
		t.Fatal(err)
	}
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(data)
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestTSIcons lists the example mods' tools, prompts, resources and
// resource templates over stdio with the official MCP TypeScript client,
// and checks their icons against its schema.
func TestTSIcons(t *testing.T) {
	t.Parallel()
	dir := nodeTools(t)
	var mods []string
	for _, m := range []string{"research", "dependencies"} {
		abs, err := filepath.Abs(filepath.Join("..", "..", "examples", m))
		if err != nil {
			t.Fatal(err)
		}
		mods = append(mods, abs)
	}
	server := mustJSON(t, map[string]any{"command": modhostBinary(t), "args": []string{"--mods", strings.Join(mods, ","), "--workspace", t.TempDir(), "mcp"}})
	cmd := nodeCommand(t, dir, filepath.Join("testdata", "tsicons.mjs"), dir, server)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tsicons: %v\nstdout: %s\nstderr: %s", err, out, errOut.Bytes())
	}
	var report struct {
		RefusesBad bool
		Tools      []struct {
			Name     string
			Icons    []manifest.Icon
			Problems []string
		}
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("tsicons output %s: %v", out, err)
	}
	if !report.RefusesBad {
		t.Error("the schema accepted an icon that breaks it: it checks nothing")
	}
	kinds := map[string]bool{}
	for _, item := range report.Tools {
		kinds[strings.Fields(item.Name)[0]] = true
	}
	if len(kinds) != 4 {
		t.Fatalf("listed %v, want tools, prompts, resources and templates", kinds)
	}
	for _, tool := range report.Tools {
		if len(tool.Icons) == 0 {
			t.Errorf("%s: no icons, want its own or its mod's", tool.Name)
		}
		for _, p := range tool.Problems {
			t.Errorf("%s: icon breaks the MCP schema: %s", tool.Name, p)
		}
	}
}

package mcpbridge_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/manifest"
)

// TestToolIcons lists the example mods' tools at both protocol revisions
// that have icons: a tool with icons of its own lists them, the others
// their mod's, each the embedded image of the example's file.
func TestToolIcons(t *testing.T) {
	t.Parallel()
	examples := filepath.Join("..", "..", "examples")
	h := loadHost(t, filepath.Join(examples, "research"), filepath.Join(examples, "dependencies"))
	image := func(mod, file string) string {
		data, err := os.ReadFile(filepath.Join(examples, mod, file))
		if err != nil {
			t.Fatal(err)
		}
		return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(data)
	}
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

// TestTSIcons lists the example mods' tools over stdio with the official
// MCP TypeScript client, and checks their icons against its schema.
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
	if len(report.Tools) == 0 {
		t.Fatal("no tools listed")
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

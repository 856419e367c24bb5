package host_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
)

// A call's timeout counts from when its mod is ready: on a cold cache the
// build, however long, is not the tool's time.
func TestTimeoutCountsFromReady(t *testing.T) {
	t.Parallel()
	h := load(t, &host.Options{CacheDir: t.TempDir()}, quickDir)
	res, err := h.Call(t.Context(), &host.CallRequest{Tool: "quick_echo", Input: json.RawMessage(`{"text":"x"}`), Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCompleted)
	if builds(h, "quick") != 1 {
		t.Errorf("progress %q: want one build", h.progress)
	}
}

// fakeGo puts a go command first on PATH that fails go build once, with
// what script prints and does, then runs the real go command.
func fakeGo(t *testing.T, script string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake go command is a shell script")
	}
	real, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	marker := filepath.Join(dir, "fail-once")
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	sh := "#!/bin/sh\nif [ \"$1\" = build ] && [ -e " + marker + " ]; then\n\trm " + marker + "\n\t" + script + "\nfi\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(sh), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// A build that fails for a cause outside the mod's sources says what
// happened, is not remembered as the mod's failure, and the next call
// builds again (tried once: a build is slow).
func TestPassingBuildFailure(t *testing.T) {
	for _, tt := range []struct {
		name, script, cause string
		retry               bool
	}{
		{"disk full", `echo "go: writing output: write $TMPDIR/b001/exe/a.out: no space left on device" >&2; exit 1`, "no space left on device", true},
		{"compiler killed", `echo "# example.com/quick" >&2; echo "/usr/lib/go/pkg/tool/linux_amd64/compile: signal: killed" >&2; exit 1`, "compile was ended by a signal (killed)", false},
		{"go killed", `kill -KILL $$`, "the go command was killed (signal: killed)", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fakeGo(t, tt.script)
			cache := t.TempDir()
			h := load(t, &host.Options{CacheDir: cache}, quickDir)
			res := call(t, h, "quick_echo", `{"text":"x"}`)
			wantStatus(t, res, host.StatusFailed)
			for _, want := range []string{tt.cause, "nothing is remembered, and the next call builds again"} {
				if !strings.Contains(res.Error, want) {
					t.Errorf("got error %q, want it to contain %q", res.Error, want)
				}
			}
			if want := "Tool failed: mod quick is unavailable: its build failed: " + tt.cause + "; the next call builds it again"; res.Text != want {
				t.Errorf("got text %q, want %q", res.Text, want)
			}
			if !strings.Contains(h.progress.String(), tt.cause) {
				t.Errorf("progress %q does not say what happened", h.progress)
			}
			if bad := h.Unavailable(); len(bad) != 0 {
				t.Errorf("got unavailable %v, want none: the failure passes", bad)
			}
			// A new host sharing the cache has nothing recorded either.
			if bad := load(t, &host.Options{CacheDir: cache}, quickDir).CheckBuilds(); len(bad) != 0 {
				t.Errorf("CheckBuilds: got %v, want none", bad)
			}
			if !tt.retry {
				return
			}
			wantStatus(t, call(t, h, "quick_echo", `{"text":"x"}`), host.StatusCompleted)
			if n := builds(h, "quick"); n != 2 {
				t.Errorf("got %d builds, want 2", n)
			}
		})
	}
}

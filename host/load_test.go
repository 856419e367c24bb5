package host_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
)

// writeManifest writes the crashy mod's source and its manifest, changed
// by edit, into a new directory and returns it.
func writeManifest(t *testing.T, edit func(doc map[string]any)) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(crashyDir, "crashy.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "crashy.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(crashyDir, "mod.manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	data, err = json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mod.manifest.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A bad mod directory is reported with the fix, and the other mods load.
func TestLoadErrors(t *testing.T) {
	t.Parallel()
	other := func(t *testing.T) string {
		return writeManifest(t, func(doc map[string]any) { doc["id"] = "other" })
	}
	tests := []struct {
		name string
		dir  func(t *testing.T) string
		want []string
	}{
		{"missing dir", func(t *testing.T) string { return "testdata/mods/nowhere" },
			[]string{"load testdata/mods/nowhere: no such mod directory"}},
		{"no manifest", func(t *testing.T) string { return t.TempDir() },
			[]string{"no mod.manifest.json; run go generate in "}},
		{"malformed manifest", func(t *testing.T) string {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "mod.manifest.json"), []byte(`{"id":`), 0o644)
			return dir
		}, []string{"mod.manifest.json: decode manifest", "run go generate in "}},
		{"manifest fails its schema", func(t *testing.T) string {
			return writeManifest(t, func(doc map[string]any) { doc["colour"] = "red"; doc["id"] = "Bad Id" })
		}, []string{"mod.manifest.json:", "colour"}},
		{"not a Go package", func(t *testing.T) string {
			dir := writeManifest(t, func(doc map[string]any) { doc["id"] = "other" })
			os.Remove(filepath.Join(dir, "crashy.go"))
			return dir
		}, []string{"mod other (", "): not a Go package (no Go files)"}},
		{"tool clash", other,
			[]string{"tool crashy_echo is defined by both mod crashy (" + crashyDir + ") and mod other; rename one of them"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.dir(t)
			h := load(t, nil, crashyDir, dir)
			bad := h.Unavailable()
			if len(bad) != 1 {
				t.Fatalf("got unavailable %v, want one", bad)
			}
			if bad[0].Dir != dir {
				t.Errorf("got dir %q, want %q", bad[0].Dir, dir)
			}
			for _, w := range tt.want {
				if !strings.Contains(bad[0].Error(), w) {
					t.Errorf("got error %q, want it to contain %q", bad[0], w)
				}
			}
			if !strings.Contains(h.progress.String(), bad[0].Error()) {
				t.Errorf("progress %q does not report %q", h.progress, bad[0])
			}
			tools, _ := h.Tools("")
			for _, tool := range tools {
				if tool.Mod != "crashy" {
					t.Errorf("got tool %s of mod %s, want only crashy's", tool.Name, tool.Mod)
				}
			}
			wantStatus(t, call(t, h, "crashy_echo", `{"text":"fine"}`), host.StatusCompleted)
		})
	}
}

// A mod whose sources changed since go generate is refused, in full for
// the operator and in one line for the model.
func TestStaleModIsRefused(t *testing.T) {
	t.Parallel()
	dir := writeManifest(t, func(map[string]any) {})
	f, err := os.OpenFile(filepath.Join(dir, "crashy.go"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n// An edit after go generate.\n")
	f.Close()
	h := load(t, nil, dir)
	want := "mod crashy (" + dir + "): generated files are out of date; run go generate in " + dir
	if bad := h.Unavailable(); len(bad) != 1 || bad[0].Error() != want {
		t.Fatalf("got unavailable %v, want %q", bad, want)
	}
	res, err := h.Call(context.Background(), &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusFailed)
	if res.Error != want {
		t.Errorf("got error %q, want %q", res.Error, want)
	}
	if wantText := "Tool failed: mod crashy is unavailable: its generated files are out of date"; res.Text != wantText {
		t.Errorf("got text %q, want %q", res.Text, wantText)
	}
	if strings.Contains(h.progress.String(), "building") {
		t.Errorf("a stale mod was built: %q", h.progress)
	}
}

func TestBadInputSchemaFailsItsCalls(t *testing.T) {
	t.Parallel()
	dir := writeManifest(t, func(doc map[string]any) {
		tool := doc["tools"].([]any)[0].(map[string]any)
		tool["inputSchema"] = map[string]any{"type": "object", "minProperties": "two"}
	})
	h, err := host.Load([]string{dir}, &host.Options{CacheDir: cacheDir})
	if err != nil {
		t.Fatalf("Load: %v (a tool's schema is compiled on its first call)", err)
	}
	defer h.Close()
	res, err := h.Call(context.Background(), &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusFailed)
	if want := "mod crashy: tool crashy_echo: input schema"; !strings.Contains(res.Error, want) {
		t.Errorf("got error %q, want it to contain %q", res.Error, want)
	}
}

func TestBuildFailureShowsCompilerErrors(t *testing.T) {
	t.Parallel()
	// broken builds in a cache of its own; crashy is copied in, built.
	h := load(t, &host.Options{CacheDir: copyCache(t, crashyDir)}, crashyDir, "testdata/mods/broken")
	for range 2 {
		res := call(t, h, "broken_ping", `{}`)
		wantStatus(t, res, host.StatusFailed)
		for _, want := range []string{"mod broken (testdata/mods/broken) does not build; fix the errors", "broken.go:9:17", "cannot use \"not a number\""} {
			if !strings.Contains(res.Error, want) {
				t.Errorf("got error %q, want it to contain %q", res.Error, want)
			}
		}
		if want := "Tool failed: mod broken is unavailable: it does not build"; res.Text != want {
			t.Errorf("got text %q, want %q", res.Text, want)
		}
	}
	// Built once, reported once, in full, to the operator.
	for want, n := range map[string]int{"building mod broken…": 1, "broken.go:9:17": 1} {
		if got := strings.Count(h.progress.String(), want); got != n {
			t.Errorf("progress %q has %q %d times, want %d", h.progress, want, got, n)
		}
	}
	if bad := h.Unavailable(); len(bad) != 1 || bad[0].Mod != "broken" || bad[0].Reason != "it does not build" {
		t.Errorf("got unavailable %v, want mod broken", bad)
	}
	// The other mod is not affected.
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"fine"}`), host.StatusCompleted)

	// A new host learns from the cache, without building, that it fails.
	h2 := load(t, &host.Options{CacheDir: h.cacheDir}, crashyDir, "testdata/mods/broken")
	if bad := h2.CheckBuilds(); len(bad) != 1 || bad[0].Mod != "broken" || !strings.Contains(bad[0].Error(), "broken.go:9:17") {
		t.Errorf("got %v, want mod broken's build failure", bad)
	}
	if strings.Contains(h2.progress.String(), "building") {
		t.Errorf("CheckBuilds built: %q", h2.progress)
	}
}

func TestHandshakeFailure(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir, "testdata/mods/badstart")
	res := call(t, h, "badstart_ping", `{}`)
	wantStatus(t, res, host.StatusFailed)
	want := "start mod badstart: handshake failed: Unrecognized remote plugin message: hello from init, on stdout"
	if res.Error != want {
		t.Errorf("got error %q, want %q", res.Error, want)
	}
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"fine"}`), host.StatusCompleted)
	// A build of the mod that does not start is the mod's failure: the
	// next host runs the cached build, and rebuilds nothing.
	h2 := load(t, nil, "testdata/mods/badstart")
	if res := call(t, h2, "badstart_ping", `{}`); res.Error != want {
		t.Errorf("next host: got error %q, want %q", res.Error, want)
	}
	if n := builds(h2, "badstart"); n != 0 {
		t.Errorf("next host: got %d builds, want 0; progress:\n%s", n, h2.progress)
	}
}

func TestBinaryIsReused(t *testing.T) {
	t.Parallel()
	cache := copyCache(t, crashyDir)
	for i, want := range []int{0, 0} {
		h := load(t, &host.Options{CacheDir: cache}, crashyDir)
		wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
		h.Close()
		if n := strings.Count(h.progress.String(), "building mod crashy…"); n != want {
			t.Errorf("host %d: got %d builds, want %d", i, n, want)
		}
	}
}

// helperEnv makes the test binary act as a host process for
// TestModDiesWithHost.
const helperEnv = "MODKIT_HOST_TEST_HELPER"

// runHelper loads crashy, starts it, says "ready" and waits to be killed.
func runHelper() {
	h, err := host.Load([]string{crashyDir}, &host.Options{CacheDir: os.Getenv(helperEnv)})
	if err != nil {
		println(err.Error())
		os.Exit(1)
	}
	res, err := h.Call(context.Background(), &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"x"}`)})
	if err != nil || res.Status != host.StatusCompleted {
		println("call failed")
		os.Exit(1)
	}
	os.Stdout.WriteString("ready\n")
	time.Sleep(time.Minute)
	os.Exit(1)
}

func TestModDiesWithHost(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+cacheDir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("helper said %q, %v; want ready", line, err)
	}
	var mods []int
	for _, pid := range modPIDs(t, cacheDir) {
		if parent(pid) == cmd.Process.Pid {
			mods = append(mods, pid)
		}
	}
	if len(mods) != 1 {
		t.Fatalf("got %d mod processes of the helper, want 1", len(mods))
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	waitGone(t, mods)
}

func parent(pid int) int {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	// The command name may hold spaces; fields after its ")" are fixed.
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// TestBuild builds crashy into a new cache, the one test that waits for a
// build: a call cancelled meanwhile returns without waiting for it, the build
// goes on for the next call, and then prunes the mod's stale binaries.
func TestBuild(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	bin := filepath.Join(cache, "bin")
	os.MkdirAll(bin, 0o700)
	old := time.Now().Add(-48 * time.Hour)
	for _, name := range []string{"crashy-0123456789abcdef01234567", "crashy-fedcba9876543210fedcba98"} {
		path := filepath.Join(bin, name)
		os.WriteFile(path, []byte("old"), 0o500)
		if name != "crashy-fedcba9876543210fedcba98" {
			os.Chtimes(path, old, old)
		}
	}
	os.WriteFile(filepath.Join(bin, "quick-0123456789abcdef01234567"), []byte("other mod"), 0o500)
	os.Chtimes(filepath.Join(bin, "quick-0123456789abcdef01234567"), old, old)

	building := make(chan struct{})
	var once sync.Once
	h := load(t, &host.Options{CacheDir: cache, Progress: writerFunc(func(p []byte) {
		if strings.Contains(string(p), "building mod crashy…") {
			once.Do(func() { close(building) })
		}
	})}, crashyDir)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-building
		cancel()
	}()
	res, err := h.Call(ctx, &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"x"}`), Session: session(t)})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, host.StatusCancelled)
	// The build went on: the next call uses it.
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	for name, want := range map[string]bool{
		"crashy-0123456789abcdef01234567": false, // stale
		"crashy-fedcba9876543210fedcba98": true,  // recent: a host may still run it
		"quick-0123456789abcdef01234567":  true,  // another mod's
	} {
		_, err := os.Stat(filepath.Join(bin, name))
		if got := err == nil; got != want {
			t.Errorf("%s: got exists %v, want %v", name, got, want)
		}
	}
}

func TestStartFailures(t *testing.T) {
	tests := []struct {
		start   string // crashy.StartEnv
		timeout time.Duration
		want    string // the mod starts before its input is judged
	}{
		{"exit", 0, "start mod crashy: exited before the handshake (exit status 4); its stderr ends:\n  crashy refuses to start"},
		{"hang", 300 * time.Millisecond, "start mod crashy: no handshake within 300ms (Options.HandshakeTimeout)"},
	}
	for _, tt := range tests {
		t.Run(tt.start, func(t *testing.T) {
			t.Setenv("MODKIT_TEST_CRASHY_START", tt.start)
			h := load(t, &host.Options{HandshakeTimeout: tt.timeout}, crashyDir)
			res := call(t, h, "crashy_echo", `{"text":"x"}`)
			wantStatus(t, res, host.StatusFailed)
			if res.Error != tt.want {
				t.Errorf("got error %q, want %q", res.Error, tt.want)
			}
		})
	}
}

// socketDirs returns the socket directories in dir of processes of mod id
// started by this process.
func socketDirs(t *testing.T, dir, id string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(dir, "modkit-"+id+"-"+strconv.Itoa(os.Getpid())+"-*"))
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

func TestSocketDirs(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	left := map[string]bool{
		fmt.Sprintf("modkit-crashy-%d-123", dead.Process.Pid): false, // its host is gone
		"modkit-crashy-1-456": true, // its host runs
		"modkit-my-mod-123":   true, // says no host
		"other-1-2":           true,
	}
	for name := range left {
		if err := os.Mkdir(filepath.Join(tmp, name), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	h := load(t, nil, crashyDir)
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	for name, want := range left {
		if _, err := os.Stat(filepath.Join(tmp, name)); (err == nil) != want {
			t.Errorf("%s: got exists %v, want %v", name, err == nil, want)
		}
	}
	if got := socketDirs(t, tmp, "crashy"); len(got) != 1 {
		t.Errorf("got socket dirs %q for one running process, want one", got)
	}
	// A crash removes the crashed process's directory.
	wantStatus(t, call(t, h, "crashy_crash", `{"how":"exit"}`), host.StatusFailed)
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	waitFor(t, "the crashed process's socket dir to go", func() bool { return len(socketDirs(t, tmp, "crashy")) == 1 })
	h.Close()
	if got := socketDirs(t, tmp, "crashy"); len(got) != 0 {
		t.Errorf("got socket dirs %q after Close, want none", got)
	}
}

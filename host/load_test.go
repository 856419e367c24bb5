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
	"syscall"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
)

// writeManifest writes the crashy manifest, changed by edit, into a new
// directory and returns it.
func writeManifest(t *testing.T, edit func(doc map[string]any)) string {
	t.Helper()
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
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mod.manifest.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadErrors(t *testing.T) {
	other := func(t *testing.T) string {
		return writeManifest(t, func(doc map[string]any) { doc["id"] = "other" })
	}
	tests := []struct {
		name string
		dirs func(t *testing.T) []string
		want []string
	}{
		{"missing dir", func(t *testing.T) []string { return []string{"testdata/mods/nowhere"} },
			[]string{"load testdata/mods/nowhere: no such mod directory"}},
		{"no manifest", func(t *testing.T) []string { return []string{t.TempDir()} },
			[]string{"no mod.manifest.json (run go generate in the mod package)"}},
		{"malformed manifest", func(t *testing.T) []string {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "mod.manifest.json"), []byte(`{"id":`), 0o644)
			return []string{dir}
		}, []string{"mod.manifest.json: decode manifest"}},
		{"manifest fails its schema", func(t *testing.T) []string {
			return []string{writeManifest(t, func(doc map[string]any) { doc["colour"] = "red"; doc["id"] = "Bad Id" })}
		}, []string{"mod.manifest.json:", "colour"}},
		{"tool clash", func(t *testing.T) []string { return []string{crashyDir, other(t)} },
			[]string{"tool crashy_echo is defined by both mod crashy and mod other"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := host.Load(tt.dirs(t), &host.Options{CacheDir: cacheDir})
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got error %q, want it to contain %q", err, w)
				}
			}
		})
	}
}

func TestBadInputSchemaFailsItsCalls(t *testing.T) {
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
	h := load(t, nil, crashyDir, "testdata/mods/broken")
	res := call(t, h, "broken_ping", `{}`)
	wantStatus(t, res, host.StatusFailed)
	for _, want := range []string{"build mod broken failed:", "broken.go:9:17", "cannot use \"not a number\""} {
		if !strings.Contains(res.Error, want) {
			t.Errorf("got error %q, want it to contain %q", res.Error, want)
		}
	}
	// The compiler's errors are in the failure, once, not in the progress.
	if got := h.progress.String(); !strings.Contains(got, "building mod broken…") || strings.Contains(got, "broken.go") {
		t.Errorf("got progress %q, want the build announced without the compiler's errors", got)
	}
	// The other mod is not affected.
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"fine"}`), host.StatusCompleted)
}

func TestHandshakeFailure(t *testing.T) {
	h := load(t, nil, crashyDir, "testdata/mods/badstart")
	res := call(t, h, "badstart_ping", `{}`)
	wantStatus(t, res, host.StatusFailed)
	want := "start mod badstart: handshake failed: Unrecognized remote plugin message: hello from init, on stdout"
	if res.Error != want {
		t.Errorf("got error %q, want %q", res.Error, want)
	}
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"fine"}`), host.StatusCompleted)
}

func TestChecksumMismatch(t *testing.T) {
	cache := copyCache(t, crashyDir)
	h := load(t, &host.Options{CacheDir: cache}, crashyDir)
	wantStatus(t, call(t, h, "crashy_echo", `{"text":"x"}`), host.StatusCompleted)
	h.Close()
	var bins []string
	all, _ := filepath.Glob(filepath.Join(cache, "bin", "crashy-*"))
	for _, b := range all {
		if filepath.Ext(b) == "" {
			bins = append(bins, b)
		}
	}
	if len(bins) != 1 {
		t.Fatalf("got binaries %v, want one", bins)
	}
	f, err := os.OpenFile(bins[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("tampered"))
	f.Close()

	h = load(t, &host.Options{CacheDir: cache}, crashyDir)
	res := call(t, h, "crashy_echo", `{"text":"x"}`)
	wantStatus(t, res, host.StatusFailed)
	if !strings.Contains(res.Error, "start mod crashy: binary checksum does not match") {
		t.Errorf("got error %q, want a checksum mismatch naming the mod", res.Error)
	}
	// The tampered binary and its checksum were dropped: the next call
	// builds it again (TestBuild shows a build).
	for _, path := range []string{bins[0], bins[0] + ".sha256"} {
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s: got %v, want it removed", filepath.Base(path), err)
		}
	}
}

func TestBinaryIsReused(t *testing.T) {
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
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
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
	cache := t.TempDir()
	bin := filepath.Join(cache, "bin")
	os.MkdirAll(bin, 0o755)
	old := time.Now().Add(-48 * time.Hour)
	for _, name := range []string{"crashy-0123456789abcdef01234567", "crashy-0123456789abcdef01234567.sha256", "crashy-fedcba9876543210fedcba98"} {
		path := filepath.Join(bin, name)
		os.WriteFile(path, []byte("old"), 0o644)
		if name != "crashy-fedcba9876543210fedcba98" {
			os.Chtimes(path, old, old)
		}
	}
	os.WriteFile(filepath.Join(bin, "quick-0123456789abcdef01234567"), []byte("other mod"), 0o644)
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
		"crashy-0123456789abcdef01234567":        false, // stale
		"crashy-0123456789abcdef01234567.sha256": false,
		"crashy-fedcba9876543210fedcba98":        true, // recent: a host may still run it
		"quick-0123456789abcdef01234567":         true, // another mod's
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
		want    string // crashy hooks every call: its hook starts it
	}{
		{"exit", 0, "hook of mod crashy before tool.call: start mod crashy: exited before the handshake (exit status 4); its stderr ends:\n  crashy refuses to start"},
		{"hang", 300 * time.Millisecond, "hook of mod crashy before tool.call: start mod crashy: no handshake within 300ms (Options.HandshakeTimeout)"},
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

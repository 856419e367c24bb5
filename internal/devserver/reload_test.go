package devserver_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/devserver"
	"github.com/modkit/modkit/internal/testenv"
)

// reloadySource is a mod whose echo tool answers with version, whose
// form tool takes every shape of input a form builds, and whose clock tool
// stamps status updates with the mod's clock.
func reloadySource(version string) string {
	return `package reloady

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/modkit/modkit/sdk"
)

// In is the echo's input.
type In struct {
	// Text is echoed.
	Text string ` + "`json:\"text\"`" + `
}

// Color is a color to pick.
type Color string

// The colors.
const (
	Red   Color = "red"
	Green Color = "green"
)

// Item is one thing in a list.
type Item struct {
	// Title names the item.
	Title string ` + "`json:\"title\" jsonschema:\"minLength=1,maxLength=20\"`" + `
	// Count is how many.
	Count int ` + "`json:\"count\" jsonschema:\"minimum=0\"`" + `
}

// FormIn has every shape a form builds.
type FormIn struct {
	// Name is a string with a pattern.
	Name string ` + "`json:\"name\" jsonschema:\"pattern=^[a-z]+$\"`" + `
	// Color is an enum.
	Color Color ` + "`json:\"color\"`" + `
	// Loud is a boolean.
	Loud bool ` + "`json:\"loud,omitempty\"`" + `
	// Nested is an object.
	Nested Item ` + "`json:\"nested\"`" + `
	// Items is an array of objects.
	Items []Item ` + "`json:\"items\"`" + `
	// Tags is a map.
	Tags map[string]int ` + "`json:\"tags\"`" + `
	// Maybe is a pointer: null or a number.
	Maybe *int ` + "`json:\"maybe\"`" + `
	// Sure is an optional boolean that may be null.
	Sure *bool ` + "`json:\"sure,omitempty\"`" + `
}

// ClockIn says how many status updates to send, and how far apart.
type ClockIn struct {
	// N is how many.
	N int ` + "`json:\"n\" jsonschema:\"minimum=1,maximum=1000\"`" + `
	// GapMS is the pause after each, in milliseconds.
	GapMS int ` + "`json:\"gapMs\" jsonschema:\"minimum=0,maximum=1000\"`" + `
}

// Mod is a mod the reload test edits.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "reloady", Description: "Edited by the reload test."},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[In]{
			Name:        "reloady_echo",
			Description: "Echoes its text with the mod's version. Call it to test reloads.",
			Activity:    "Echoing…",
			Run: func(tc *sdk.ToolContext, in In) (sdk.Result, error) {
				return sdk.Text(` + version + ` + " " + in.Text), nil
			},
		},
		sdk.PlainTool[FormIn]{
			Name:        "reloady_form",
			Description: "Returns its input as JSON. Call it to test forms.",
			Activity:    "Echoing…",
			Run: func(tc *sdk.ToolContext, in FormIn) (sdk.Result, error) {
				data, err := json.Marshal(in)
				return sdk.Text(string(data)), err
			},
		},
		sdk.PlainTool[ClockIn]{
			Name: "reloady_clock",
			Description: "Sends n status updates, \"tick I at T\", T the mod's clock when it sent update I in Unix microseconds. " +
				"Call it to measure how fast status reaches a client.",
			Activity: "Ticking…",
			Run: func(tc *sdk.ToolContext, in ClockIn) (sdk.Result, error) {
				for i := range in.N {
					tc.Status(fmt.Sprintf("tick %d at %d", i, time.Now().UnixMicro()))
					select {
					case <-tc.Done():
						return sdk.Result{}, tc.Err()
					case <-time.After(time.Duration(in.GapMS) * time.Millisecond):
					}
				}
				return sdk.Text(fmt.Sprint(in.N, " ticks")), nil
			},
		},
	}},
})
`
}

// TestReload edits a mod while the inspector serves it: the page hears of
// each change, a good edit is served, a broken one is shown with
// file:line:col while the last good build keeps serving.
func TestReload(t *testing.T) {
	t.Parallel()
	// The mod lives in a module of its own, which requires this checkout.
	dir := testenv.ModuleDir(t)
	src := filepath.Join(dir, "reloady.go")
	write := func(content string) {
		t.Helper()
		if err := os.WriteFile(src, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(reloadySource(`"v0"`))

	// Without generated files the mod does not load; an edit generates
	// them.
	f := start(t, dir)
	var st struct {
		Mods        []struct{ ID string }
		Unavailable []struct{ Dir string }
		Builds      []struct {
			Mod, Stage string
			Problems   []string
		}
		Reloads int
	}
	f.decode("GET", "/api/state", nil, http.StatusOK, &st)
	if len(st.Unavailable) != 1 || len(st.Mods) != 0 {
		t.Fatalf("before generation: got %+v, want the mod unavailable", st)
	}
	stateEvents := f.subscribe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.srv.Watch(ctx, 20*time.Millisecond)
	// Each edit replaces the file at once, as editors save, and is one
	// reload: the page hears of it once.
	edit := func(content string) {
		t.Helper()
		tmp := filepath.Join(dir, ".reloady.go.tmp")
		if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, src); err != nil {
			t.Fatal(err)
		}
		<-stateEvents
	}
	edit(reloadySource(`"v1"`))
	f.decode("GET", "/api/state", nil, http.StatusOK, &st)
	if len(st.Mods) != 1 || len(st.Unavailable) != 0 || len(st.Builds) != 0 || st.Reloads != 1 {
		t.Fatalf("after generation: got %+v, want the mod loaded", st)
	}
	if o := f.outcome(f.call("reloady_echo", `{"text":"a"}`, "")); o["text"] != "v1 a" {
		t.Fatalf("v1: got %v", o)
	}

	edit(reloadySource(`"v2"`))
	if o := f.outcome(f.call("reloady_echo", `{"text":"b"}`, "")); o["text"] != "v2 b" {
		t.Errorf("after an edit: got %v, want v2 b", o)
	}

	broken := reloadySource(`42`) // a type error: 42 + " "
	line := strings.Count(broken[:strings.Index(broken, `42 + " "`)], "\n") + 1
	edit(broken)
	f.decode("GET", "/api/state", nil, http.StatusOK, &st)
	if want := fmt.Sprintf("reloady.go:%d:21: invalid operation", line); len(st.Builds) != 1 || st.Builds[0].Mod != "reloady" ||
		len(st.Builds[0].Problems) != 1 || !strings.HasPrefix(st.Builds[0].Problems[0], want) {
		t.Errorf("broken edit: got builds %+v, want one problem of mod reloady, at %s", st.Builds, want)
	}
	if o := f.outcome(f.call("reloady_echo", `{"text":"c"}`, "")); o["text"] != "v2 c" {
		t.Errorf("the last good build: got %v, want v2 c", o)
	}

	edit(reloadySource(`"v3"`))
	f.decode("GET", "/api/state", nil, http.StatusOK, &st)
	if len(st.Builds) != 0 {
		t.Errorf("fixed: got builds %+v, want none", st.Builds)
	}
	if o := f.outcome(f.call("reloady_echo", `{"text":"d"}`, "")); o["text"] != "v3 d" {
		t.Errorf("fixed: got %v, want v3 d", o)
	}
}

// subscribe reads /api/events and sends on the channel each "state" event.
func (f *fixture) subscribe() <-chan struct{} {
	f.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	f.t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", f.ts.URL+"/api/events?token="+token, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	ch := make(chan struct{}, 16)
	sc := bufio.NewScanner(resp.Body)
	sc.Scan() // the hello: the subscription is in place
	go func() {
		defer resp.Body.Close()
		for sc.Scan() {
			if sc.Text() == "event: state" {
				ch <- struct{}{}
			}
		}
	}()
	return ch
}

// TestWatchEvents sees an edit through file events alone: the poll is an
// hour away.
func TestWatchEvents(t *testing.T) {
	t.Parallel()
	dir := testenv.ModuleDir(t)
	src := filepath.Join(dir, "reloady.go")
	if err := os.WriteFile(src, []byte(reloadySource(`"v1"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	f := start(t, dir)
	stateEvents := f.subscribe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.srv.Watch(ctx, time.Hour)
	tmp := filepath.Join(dir, ".reloady.go.tmp")
	if err := os.WriteFile(tmp, []byte(reloadySource(`"v2"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, src); err != nil {
		t.Fatal(err)
	}
	<-stateEvents
	if o := f.outcome(f.call("reloady_echo", `{"text":"e"}`, "")); o["text"] != "v2 e" {
		t.Errorf("after an edit: got %v, want v2 e", o)
	}
}

// TestWatchRegeneratesStale starts on a mod edited after its last
// generation: Watch regenerates and serves it without waiting for a save.
func TestWatchRegeneratesStale(t *testing.T) {
	t.Parallel()
	dir := testenv.ModuleDir(t)
	src := filepath.Join(dir, "reloady.go")
	if err := os.WriteFile(src, []byte(reloadySource(`"v1"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	// Generated as Reload generates, without the build and start of v1
	// that Reload goes on to do: only v2 is served.
	if ps := devserver.Generate(dir); len(ps) > 0 {
		t.Fatalf("generate v1: %v", ps)
	}
	if err := os.WriteFile(src, []byte(reloadySource(`"v2"`)), 0o644); err != nil {
		t.Fatal(err)
	}

	f := start(t, dir)
	var st struct{ Unavailable []struct{ Error string } }
	f.decode("GET", "/api/state", nil, http.StatusOK, &st)
	if len(st.Unavailable) != 1 || !strings.Contains(st.Unavailable[0].Error, "generated files are out of date") {
		t.Fatalf("before Watch: got unavailable %+v, want the mod stale", st.Unavailable)
	}
	stateEvents := f.subscribe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.srv.Watch(ctx, time.Hour)
	<-stateEvents
	if o := f.outcome(f.call("reloady_echo", `{"text":"s"}`, "")); o["text"] != "v2 s" {
		t.Errorf("after Watch began: got %v, want v2 s", o)
	}
}

// TestWatchFiles follows a file such as mods.lock: a change loads every
// mod afresh; a load that fails keeps the old host serving and shows why
// until a change loads.
func TestWatchFiles(t *testing.T) {
	t.Parallel()
	lock := filepath.Join(t.TempDir(), "mods.lock")
	var loadErr atomic.Pointer[error]
	load := func() (*host.Host, error) {
		if err := loadErr.Load(); err != nil {
			return nil, *err
		}
		return host.Load(nil, &host.Options{CacheDir: cacheDir, Progress: io.Discard})
	}
	h, err := load()
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	srv, err := devserver.New(h, &devserver.Options{Token: token, Addr: ts.Listener.Addr().String(), Load: load, Files: []string{lock}})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = srv
	ts.Start()
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	f := &fixture{t: t, srv: srv, ts: ts}
	stateEvents := f.subscribe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv.Watch(ctx, 20*time.Millisecond)
	var st struct {
		Builds []struct {
			Dir, Stage string
			Problems   []string
		}
		Reloads int
	}

	failed := errors.New("mods.lock: example.com/greet v9.9.9: not found")
	loadErr.Store(&failed)
	if err := os.WriteFile(lock, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	<-stateEvents
	f.decode("GET", "/api/state", nil, http.StatusOK, &st)
	if len(st.Builds) != 1 || st.Builds[0].Dir != lock || len(st.Builds[0].Problems) != 1 || st.Builds[0].Problems[0] != failed.Error() || st.Reloads != 0 {
		t.Errorf("a load that fails: got %+v, want its error shown for %s, no reload", st, lock)
	}

	loadErr.Store(nil)
	if err := os.WriteFile(lock, []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	<-stateEvents
	f.decode("GET", "/api/state", nil, http.StatusOK, &st)
	if len(st.Builds) != 0 || st.Reloads != 1 {
		t.Errorf("a load that succeeds: got %+v, want one reload and no error", st)
	}
}

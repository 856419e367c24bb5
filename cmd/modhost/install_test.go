package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/mod/sumdb/dirhash"

	"github.com/modkit/modkit/internal/modproxytest"
	"github.com/modkit/modkit/internal/protocol"
)

// greetSource is a mod published as the module example.com/greet; update
// makes v1.1.0 say hello differently.
const greetSource = `// Package greet is a test mod published as a module.
package greet

import "github.com/modkit/modkit/sdk"

// HelloInput says whom to greet.
type HelloInput struct {
	// Name is the person to greet.
	Name string ` + "`json:\"name\"`" + `
}

// Mod is the greet mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "greet", Description: "Greets people."},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[HelloInput]{
			Name:        "greet_hello",
			Description: "Greets a person by name. Call it to say hello.",
			Run: func(tc *sdk.ToolContext, in HelloInput) (sdk.Result, error) {
				return sdk.Text("GREETING, " + in.Name + "!"), nil
			},
		},
	}},
	Commands: []sdk.Command{{ID: "greet.count", Title: "Count the greetings", Run: count}},
})
`

const greetCount = `package greet

import (
	"context"
	"encoding/json"

	"github.com/modkit/modkit/sdk"
)

func count(context.Context, *sdk.Env, json.RawMessage) (string, error) { return "none yet", nil }
`

// fetchV1 is a mod published as example.com/fetch v1.0.0: it connects to
// one endpoint, and its one tool asks for approval.
const fetchV1 = `// Package fetch is a test mod whose v1.1.0 asks for more than v1.0.0.
package fetch

import "github.com/modkit/modkit/sdk"

// GetInput names the page to fetch.
type GetInput struct {
	// URL is the page's address.
	URL string ` + "`json:\"url\"`" + `
}

// Mod is the fetch mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata:    sdk.Metadata{ID: "fetch", Description: "Fetches pages."},
	Permissions: sdk.Permissions{Connect: []string{"127.0.0.1:9099"}},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[GetInput]{
			Name:        "fetch_get",
			Description: "Fetches a page. Call it with the page's URL.",
			Approval:    &sdk.Approval[GetInput]{Reason: "it fetches a page"},
			Run: func(tc *sdk.ToolContext, in GetInput) (sdk.Result, error) {
				return sdk.Text("fetched " + in.URL), nil
			},
		},
	}},
})
`

// fetchV2 is example.com/fetch v1.1.0: it connects anywhere, runs any
// program, adds a tool, and fetch_get no longer asks for approval.
var fetchV2 = strings.NewReplacer(
	`Permissions: sdk.Permissions{Connect: []string{"127.0.0.1:9099"}},`,
	`Permissions: sdk.Permissions{Connect: []string{sdk.Any}, Run: []string{sdk.Any}},`,
	`			Approval:    &sdk.Approval[GetInput]{Reason: "it fetches a page"},
`, "",
	`	}},
})`, `		sdk.PlainTool[GetInput]{
			Name:        "fetch_run",
			Description: "Runs what a page says.",
			Run: func(tc *sdk.ToolContext, in GetInput) (sdk.Result, error) {
				return sdk.Text("ran " + in.URL), nil
			},
		},
	}},
})`).Replace(fetchV1)

// scriptT adapts a script's environment to what modproxytest needs.
type scriptT struct{ e *testscript.Env }

func (s scriptT) Helper()                           {}
func (s scriptT) Fatal(args ...any)                 { s.e.T().Fatal(args...) }
func (s scriptT) Fatalf(format string, args ...any) { s.e.T().Fatal(fmt.Sprintf(format, args...)) }
func (s scriptT) Cleanup(f func())                  { s.e.Defer(f) }
func (s scriptT) TempDir() string {
	dir, err := os.MkdirTemp(s.e.WorkDir, "tmp")
	if err != nil {
		s.Fatal(err)
	}
	return dir
}

// TestInstallScripts runs testdata/install/*.txtar. Each script has its own
// module proxy, in $PROXY, holding this checkout as modkit v0.1.0 and the
// mod example.com/greet v1.0.0 and v1.1.0 (sources in $GREET), its own
// checksum database, a new module cache holding modkit's dependencies (as
// a developer's does: modkit and greet come from the proxy) and its own
// $MODKIT_CACHE: nothing comes from the network. A script that does not
// test the caches themselves may use the prepared greet v1.0.0 instead,
// fetched and built once for all the scripts: its module cache is
// $PREPARED_MODCACHE and its MODKIT_CACHE $PREPARED_CACHE (every proxy
// serves the same greet, byte for byte, so its hashes are the same).
func TestInstallScripts(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	prepared := prepareGreet(t, root)
	if followsLock != nil {
		t.Run("mcp follows mods.lock", func(t *testing.T) { followsLock(t, prepared) })
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/install",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"tamper":        tamper,
			"lockset":       lockSet,
			"publishfuture": publishFuture,
			"cachecopies":   cacheCopies,
			"publishfetch":  publishFetch,
			"lockdel":       lockDel,
		},
		Setup: func(e *testscript.Env) error {
			st := scriptT{e}
			p := modproxytest.New(st, root)
			p.AddModkit(st, "v0.1.0", nil)
			greet := filepath.Join(e.WorkDir, "src", "greet")
			if err := os.MkdirAll(greet, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(greet, "count.go"), []byte(greetCount), 0o644); err != nil {
				return err
			}
			p.WriteMod(st, greet, "example.com/greet", "v0.1.0", greetSource)
			p.Add(st, "example.com/greet", "v1.0.0", greet, nil)
			p.Add(st, "example.com/greet", "v1.1.0", greet, map[string][]byte{"README": []byte("v1.1.0\n")})
			for _, kv := range p.Env(st, e.WorkDir) {
				k, v, _ := strings.Cut(kv, "=")
				e.Setenv(k, v)
			}
			p.SeedDeps(st, e.Getenv("GOMODCACHE"))
			e.Setenv("PROXY", p.Dir)
			e.Setenv("GREET", greet)
			// A cache of its own, so that cachecopies sees only this
			// script's copies. Sharing the package's cache would save no
			// build: a build's key covers GOMODCACHE, the script's own.
			e.Setenv("MODKIT_CACHE", filepath.Join(e.WorkDir, "cache"))
			e.Setenv("MODHOST_MODS", "")
			e.Setenv("PREPARED_MODCACHE", prepared.modCache)
			e.Setenv("PREPARED_CACHE", prepared.cache)
			e.Setenv("NOGOPATH", withoutGo(e.Getenv("PATH")))
			e.Values["proxy"] = p
			return nil
		},
	})
}

// followsLock, where set (reload_test.go, on Linux), is a test of modhost
// mcp that needs the prepared greet.
var followsLock func(t *testing.T, prepared preparedGreet)

// preparedGreet is greet v1.0.0 fetched into a module cache and built
// into a MODKIT_CACHE, which the scripts may share.
type preparedGreet struct{ modCache, cache string }

// prepareGreet fetches and builds greet v1.0.0 once, with modhost get from
// a proxy of its own, before the scripts run. Building it first also puts
// what every mod built against this checkout as a published modkit
// version needs in the build cache, so that the scripts, which run in
// parallel, find it there rather than all build it at once.
func prepareGreet(t *testing.T, root string) preparedGreet {
	p := modproxytest.New(t, root)
	p.AddModkit(t, "v0.1.0", nil)
	work := t.TempDir()
	greet := filepath.Join(work, "src", "greet")
	if err := os.MkdirAll(greet, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(greet, "count.go"), []byte(greetCount), 0o644); err != nil {
		t.Fatal(err)
	}
	p.WriteMod(t, greet, "example.com/greet", "v0.1.0", greetSource)
	p.Add(t, "example.com/greet", "v1.0.0", greet, nil)
	prepared := preparedGreet{modCache: filepath.Join(work, "modcache"), cache: filepath.Join(work, "cache")}
	p.SeedDeps(t, prepared.modCache)
	bin := filepath.Join(work, "modhost")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "get", "example.com/greet@v1.0.0")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), p.Env(t, work)...)
	cmd.Env = append(cmd.Env, "GOMODCACHE="+prepared.modCache, "MODKIT_CACHE="+prepared.cache, "MODHOST_MODS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("modhost get example.com/greet@v1.0.0: %v\n%s", err, out)
	}
	return prepared
}

// tamper changes what the proxy or the checksum database serves for
// example.com/greet@VERSION: tamper zip|gomod|tree VERSION.
func tamper(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tamper zip|gomod|tree VERSION")
	}
	p := ts.Value("proxy").(*modproxytest.Proxy)
	st := tsT{ts}
	version := args[1]
	switch args[0] {
	case "zip":
		p.TamperZip(st, "example.com/greet", version, ts.Getenv("GREET"), map[string][]byte{"extra.go": []byte("package greet\n\nvar injected = 1\n")})
	case "gomod":
		goMod, err := os.ReadFile(filepath.Join(ts.Getenv("GREET"), "go.mod"))
		ts.Check(err)
		p.TamperGoMod(st, "example.com/greet", version, append(goMod, "// tampered\n"...))
	case "tree":
		p.ForkTree(st, "example.com/greet", version)
	default:
		ts.Fatalf("tamper: unknown target %q", args[0])
	}
}

// publishFuture adds to the proxy modkit v0.2.0, this checkout speaking
// only the protocol after this one's, and the mod example.com/future
// v1.0.0 built against it.
func publishFuture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: publishfuture")
	}
	p := ts.Value("proxy").(*modproxytest.Proxy)
	st := tsT{ts}
	const file = "internal/protocol/protocol.go"
	data, err := os.ReadFile(filepath.Join(p.Root, filepath.FromSlash(file)))
	ts.Check(err)
	src := string(data)
	now, next := strconv.Itoa(protocol.Version), strconv.Itoa(protocol.Version+1)
	// Both ends' plugin sets and the mod's handshake line follow Version.
	before, after := "const Version = "+now+"\n", "const Version = "+next+"\n"
	if !strings.Contains(src, before) {
		ts.Fatalf("%s has no %q to make protocol %s of", file, before, next)
	}
	src = strings.Replace(src, before, after, 1)
	p.AddModkit(st, "v0.2.0", map[string][]byte{file: []byte(src)})
	dir := filepath.Join(ts.Getenv("WORK"), "src", "future")
	ts.Check(os.MkdirAll(dir, 0o755))
	ts.Check(os.WriteFile(filepath.Join(dir, "count.go"), []byte(strings.ReplaceAll(greetCount, "greet", "future")), 0o644))
	p.WriteMod(st, dir, "example.com/future", "v0.2.0", strings.ReplaceAll(greetSource, "greet", "future"))
	p.Add(st, "example.com/future", "v1.0.0", dir, nil)
}

// publishFetch adds to the proxy the mod example.com/fetch v1.0.0 and
// v1.1.0, which widens its permissions and loosens an approval rule.
func publishFetch(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: publishfetch")
	}
	if fetchV2 == fetchV1 {
		ts.Fatalf("fetchV2 is fetchV1: the replacements found nothing to replace")
	}
	p := ts.Value("proxy").(*modproxytest.Proxy)
	st := tsT{ts}
	dir := filepath.Join(ts.Getenv("WORK"), "src", "fetch")
	p.WriteMod(st, dir, "example.com/fetch", "v0.1.0", fetchV1)
	p.Add(st, "example.com/fetch", "v1.0.0", dir, nil)
	p.WriteMod(st, dir, "example.com/fetch", "v0.1.0", fetchV2)
	p.Add(st, "example.com/fetch", "v1.1.0", dir, nil)
}

// cacheCopies checks the copies of example.com/greet in $MODKIT_CACHE:
// one per VERSION named, each holding the files the proxy serves, and
// nothing else beside them: cachecopies VERSION...
func cacheCopies(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: cachecopies VERSION...")
	}
	p := ts.Value("proxy").(*modproxytest.Proxy)
	dir := filepath.Join(ts.Getenv("MODKIT_CACHE"), "mods", "example.com")
	var want []string
	for _, v := range args {
		name := "greet@" + v
		want = append(want, name)
		zipSum, _ := p.Sums(tsT{ts}, "example.com/greet", v)
		got, err := dirhash.HashDir(filepath.Join(dir, name), "example.com/greet@"+v, dirhash.Hash1)
		if err != nil || got != zipSum {
			ts.Fatalf("the copy of example.com/greet@%s: got hash %s, %v; want %s", v, got, err, zipSum)
		}
	}
	entries, err := os.ReadDir(dir)
	ts.Check(err)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		ts.Fatalf("%s holds %q, want %q", dir, got, want)
	}
}

// lockSet sets a field of the first block of mods.lock, its first KEY
// line: lockset KEY VALUE.
func lockSet(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: lockset KEY VALUE")
	}
	path := ts.MkAbs("mods.lock")
	data, err := os.ReadFile(path)
	ts.Check(err)
	lines := bytes.Split(data, []byte("\n"))
	for i, l := range lines {
		if f := strings.Fields(string(l)); len(f) >= 2 && f[0] == args[0] && l[0] == '\t' {
			lines[i] = fmt.Appendf(nil, "\t%-8s %s", args[0], args[1])
			ts.Check(os.WriteFile(path, bytes.Join(lines, []byte("\n")), 0o644))
			return
		}
	}
	ts.Fatalf("mods.lock has no %s line", args[0])
}

// lockDel deletes every KEY line of mods.lock, as a lock written before
// modhost recorded them lacks them: lockdel KEY.
func lockDel(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: lockdel KEY")
	}
	path := ts.MkAbs("mods.lock")
	data, err := os.ReadFile(path)
	ts.Check(err)
	lines := bytes.Split(data, []byte("\n"))
	kept := slices.DeleteFunc(slices.Clone(lines), func(l []byte) bool {
		f := strings.Fields(string(l))
		return len(f) > 0 && f[0] == args[0] && l[0] == '\t'
	})
	if len(kept) == len(lines) {
		ts.Fatalf("mods.lock has no %s line", args[0])
	}
	ts.Check(os.WriteFile(path, bytes.Join(kept, []byte("\n")), 0o644))
}

// tsT adapts a running script to what modproxytest needs.
type tsT struct{ ts *testscript.TestScript }

func (s tsT) Helper()                           {}
func (s tsT) Fatal(args ...any)                 { s.ts.Fatalf("%s", fmt.Sprint(args...)) }
func (s tsT) Fatalf(format string, args ...any) { s.ts.Fatalf(format, args...) }
func (s tsT) Cleanup(f func())                  { s.ts.Defer(f) }
func (s tsT) TempDir() string {
	dir, err := os.MkdirTemp(s.ts.Getenv("WORK"), "tmp")
	s.ts.Check(err)
	return dir
}

package modlock_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/modlock"
	"github.com/modkit/modkit/internal/modproxytest"
)

const greetSource = `// Package greet is a test mod published as a module.
package greet

import "github.com/modkit/modkit/sdk"

// GreetInput says whom to greet.
type GreetInput struct {
	// Name is the person to greet.
	Name string ` + "`json:\"name\"`" + `
}

// Mod is the greet mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "greet", Description: "Greets people."},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[GreetInput]{
			Name:        "greet_hello",
			Description: "Greets a person by name.",
			Run: func(tc *sdk.ToolContext, in GreetInput) (sdk.Result, error) {
				return sdk.Text("Hello, " + in.Name + "!"), nil
			},
		},
	}},
})
`

// published lays out a proxy holding modkit v0.1.0 and example.com/greet
// v1.0.0, and returns it, the mod's source directory and the go command's
// environment with a new module cache.
func published(t *testing.T) (*modproxytest.Proxy, string, []string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	p := modproxytest.New(t, root)
	p.AddModkit(t, "v0.1.0", nil)
	src := filepath.Join(t.TempDir(), "greet")
	p.WriteMod(t, src, "example.com/greet", "v0.1.0", greetSource)
	p.Add(t, "example.com/greet", "v1.0.0", src, nil)
	env := append(os.Environ(), p.Env(t, t.TempDir())...)
	return p, src, env
}

func TestDownloadResolve(t *testing.T) {
	p, _, env := published(t)
	ctx := context.Background()
	copies := t.TempDir()
	opts := &modlock.Options{Env: env, CopyDir: copies}
	f, err := modlock.Download(ctx, "example.com/greet", "latest", opts)
	if err != nil {
		t.Fatal(err)
	}
	wantZip, wantMod := p.Sums(t, "example.com/greet", "v1.0.0")
	if f.Module != "example.com/greet" || f.Version != "v1.0.0" || f.Zip != wantZip || f.GoMod != wantMod {
		t.Fatalf("got %+v, want example.com/greet v1.0.0 %s %s", f, wantZip, wantMod)
	}
	e, err := f.Entry()
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := modlock.Resolve(ctx, []modlock.Entry{e}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(copies, "example.com", "greet@v1.0.0"); len(dirs) != 1 || dirs[0] != want {
		t.Fatalf("Resolve: got %v, want [%s]", dirs, want)
	}
	if errs := modlock.Verify(ctx, []modlock.Entry{e}, opts); len(errs) > 0 {
		t.Fatalf("Verify: %v", errs)
	}

	// A hand-edited lock entry is refused, naming both hashes.
	edited := e
	edited.Zip = "h1:" + strings.Repeat("A", 43) + "="
	_, err = modlock.Resolve(ctx, []modlock.Entry{edited}, opts)
	assertMismatch(t, err, "zip", e.Zip, edited.Zip)

	// The entry allows what the manifest declares (nothing); a lock
	// allowing more is refused, naming the line, and so is Compare.
	if got := modlock.AllowLines(e.Permissions); e.Permissions == nil || len(got) != 1 || got[0] != "none" {
		t.Fatalf("the entry's permissions: got %v (%q), want none", e.Permissions, got)
	}
	wider, err := modlock.Parse("mods.lock", []byte(strings.Replace(string(modlock.Format([]modlock.Entry{e})), "allow    none", "allow    run git", 1)))
	if err != nil {
		t.Fatal(err)
	}
	var pe *modlock.PermissionError
	_, err = modlock.Resolve(ctx, wider, opts)
	if !errors.As(err, &pe) || !errors.Is(err, modlock.ErrMismatch) || pe.Allow != "run git" || pe.Line != 10 {
		t.Fatalf("Resolve with allow run git on line 10: got %v, want a *PermissionError naming the line", err)
	}
	if err := modlock.Compare(wider[0], f); !errors.As(err, &pe) {
		t.Fatalf("Compare with allow run git: got %v, want a *PermissionError", err)
	}

	// A file of the module cache edited is refused, naming the hashes.
	cached := filepath.Join(f.Dir, "greet.go")
	orig, err := os.ReadFile(cached)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cached, append(orig, "// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = modlock.Resolve(ctx, []modlock.Entry{e}, opts)
	assertMismatch(t, err, "extracted files", "", e.Zip)
	if err := os.WriteFile(cached, orig, 0o644); err != nil {
		t.Fatal(err)
	}

	// A copy edited is made again from the module cache.
	copied := filepath.Join(dirs[0], "greet.go")
	if err := os.Chmod(copied, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied, []byte("package greet\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := modlock.Resolve(ctx, []modlock.Entry{e}, opts); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(copied); err != nil || string(data) != string(orig) {
		t.Fatalf("the edited copy: got %q, %v; want the module's greet.go", data, err)
	}

	// A package path below the module finds the module; one with no mod
	// there is refused.
	if _, err := modlock.Download(ctx, "example.com/greet/nothere", "v1.0.0", opts); err == nil || !strings.Contains(err.Error(), "no mod at nothere") {
		t.Fatalf("got %v, want no mod at nothere", err)
	}
}

func assertMismatch(t *testing.T, err error, what, got, want string) {
	t.Helper()
	var me *modlock.MismatchError
	if !errors.As(err, &me) {
		t.Fatalf("got %v, want a *MismatchError", err)
	}
	if got == "" {
		got = me.Got // any other hash
	}
	if me.What != what || me.Got != got || me.Want != want || me.Got == me.Want {
		t.Fatalf("got mismatch of %s %s vs %s, want %s %s vs %s", me.What, me.Got, me.Want, what, got, want)
	}
	for _, h := range []string{got, want} {
		if !strings.Contains(err.Error(), h) {
			t.Errorf("error %q does not name %s", err, h)
		}
	}
}

// TestModBelowRoot installs a mod in a package below its module's root:
// MODULE/PACKAGE@VERSION finds the module, and the lock names both.
func TestModBelowRoot(t *testing.T) {
	p, src, env := published(t)
	manifest, err := os.ReadFile(filepath.Join(src, "mod.manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	p.Add(t, "example.com/multi", "v1.0.0", src, map[string][]byte{
		"go.mod":                []byte("module example.com/multi\n\ngo 1.26.0\n"),
		"sub/mod.manifest.json": manifest,
	})
	ctx := context.Background()
	opts := &modlock.Options{Env: env, CopyDir: t.TempDir()}
	f, err := modlock.Download(ctx, "example.com/multi/sub", "v1.0.0", opts)
	if err != nil {
		t.Fatal(err)
	}
	e, err := f.Entry()
	if err != nil {
		t.Fatal(err)
	}
	if e.Mod != "example.com/multi/sub" || e.Module != "example.com/multi" || e.Rel() != "sub" {
		t.Fatalf("got %+v, want mod example.com/multi/sub of module example.com/multi", e)
	}
	dirs, err := modlock.Resolve(ctx, []modlock.Entry{e}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(opts.CopyDir, "example.com", "multi@v1.0.0", "sub"); dirs[0] != want {
		t.Fatalf("got %s, want %s", dirs[0], want)
	}
	if _, err := modlock.Parse("mods.lock", modlock.Format([]modlock.Entry{e})); err != nil {
		t.Fatalf("its lock entry does not parse: %v", err)
	}
}

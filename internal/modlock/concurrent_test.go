package modlock_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/dirhash"

	"github.com/modkit/modkit/internal/modlock"
)

// resolverEnv, when set, makes the test binary a resolver process: it
// reads a lock from the variable, waits for its standard input to close,
// resolves the lock's mods and checks each copy it gets, then exits.
const resolverEnv = "MODLOCK_TEST_RESOLVE"

// editorEnv, when set, makes the test binary an editor process: it waits
// for its standard input to close, then pins editsPerProcess mods named
// after the variable's value in the lock file $MODLOCK_TEST_LOCKFILE, one
// Edit each.
const editorEnv = "MODLOCK_TEST_EDIT"

const editsPerProcess = 20

func TestMain(m *testing.M) {
	var err error
	switch {
	case os.Getenv(resolverEnv) != "":
		err = resolveAndCheck(os.Getenv(resolverEnv))
	case os.Getenv(editorEnv) != "":
		err = editMany(os.Getenv(editorEnv))
	default:
		os.Exit(m.Run())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// resolveAndCheck is a resolver process's work: lock is mods.lock's text
// and $MODLOCK_TEST_COPIES the copies' directory.
func resolveAndCheck(lock string) error {
	entries, err := modlock.Parse("mods.lock", []byte(lock))
	if err != nil {
		return err
	}
	io.Copy(io.Discard, os.Stdin) // the start signal: all resolvers at once
	dirs, err := modlock.Resolve(context.Background(), entries, &modlock.Options{CopyDir: os.Getenv("MODLOCK_TEST_COPIES")})
	if err != nil {
		return fmt.Errorf("resolve: %v", err)
	}
	for i, e := range entries {
		root := strings.TrimSuffix(dirs[i], string(filepath.Separator)+filepath.FromSlash(e.Rel()))
		if sum, err := dirhash.HashDir(root, e.Module+"@"+e.Version, dirhash.Hash1); err != nil || sum != e.Zip {
			return fmt.Errorf("the copy %s after resolve: hash %s, %v; want %s", root, sum, err, e.Zip)
		}
	}
	return nil
}

// TestResolveProcesses runs resolver processes at once, sharing one module
// cache and one directory of copies, for the same and for different
// versions: each must succeed with a good copy, the directory must end up
// holding one copy per version and nothing else, also when the copies are
// missing and when one differs.
func TestResolveProcesses(t *testing.T) {
	p, src, env := published(t)
	// Many files, so that a copy takes long enough for the resolvers to
	// meet in it.
	files := map[string][]byte{}
	for i := range 300 {
		files[fmt.Sprintf("data/f%03d.txt", i)] = bytes.Repeat([]byte{byte('a' + i%26)}, 2048)
	}
	p.Add(t, "example.com/greet", "v1.1.0", src, files)
	ctx := context.Background()
	copies := t.TempDir()
	opts := &modlock.Options{Env: env, CopyDir: copies}
	var entries []modlock.Entry
	for _, v := range []string{"v1.0.0", "v1.1.0"} {
		f, err := modlock.Download(ctx, "example.com/greet", v, opts)
		if err != nil {
			t.Fatal(err)
		}
		e, err := f.Entry()
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	// Half the resolvers want one version, half the other.
	locks := []string{string(modlock.Format(entries[1:])), string(modlock.Format(entries[:1]))}
	copyOf := func(v string) string { return filepath.Join(copies, "example.com", "greet@"+v) }

	rounds := []struct {
		name   string
		before func() error
	}{
		{"missing", func() error { return nil }},
		{"good", func() error { return nil }},
		{"differs", func() error {
			path := filepath.Join(copyOf("v1.1.0"), "data", "f000.txt")
			if err := os.Chmod(path, 0o600); err != nil {
				return err
			}
			return os.WriteFile(path, []byte("edited\n"), 0o600)
		}},
		{"removed", func() error {
			for _, v := range []string{"v1.0.0", "v1.1.0"} {
				if err := os.RemoveAll(copyOf(v)); err != nil {
					return err
				}
			}
			return nil
		}},
	}
	const procs = 8
	for _, r := range rounds {
		if err := r.before(); err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		var envs [][]string
		for i := range procs {
			envs = append(envs, append(slices.Clip(env), resolverEnv+"="+locks[i%len(locks)], "MODLOCK_TEST_COPIES="+copies))
		}
		runTogether(t, r.name+": resolver", envs)
		if t.Failed() {
			t.FailNow()
		}
		for i, v := range []string{"v1.0.0", "v1.1.0"} {
			if sum, err := dirhash.HashDir(copyOf(v), entries[i].Module+"@"+v, dirhash.Hash1); err != nil || sum != entries[i].Zip {
				t.Errorf("%s: the copy of %s: hash %s, %v; want %s", r.name, v, sum, err, entries[i].Zip)
			}
		}
		left, err := os.ReadDir(filepath.Join(copies, "example.com"))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, d := range left {
			names = append(names, d.Name())
		}
		if got, want := strings.Join(names, " "), "greet@v1.0.0 greet@v1.1.0"; got != want {
			t.Errorf("%s: the copies' directory holds %q, want %q", r.name, got, want)
		}
	}
}

// fakeEntry returns a well-formed entry for the mod example.com/NAME.
func fakeEntry(name string) modlock.Entry {
	h1 := "h1:" + strings.Repeat("A", 43) + "="
	return modlock.Entry{Mod: "example.com/" + name, Module: "example.com/" + name, Version: "v1.0.0",
		Zip: h1, GoMod: h1, Manifest: "sha256:" + strings.Repeat("0", 64)}
}

// editMany is an editor process's work.
func editMany(prefix string) error {
	io.Copy(io.Discard, os.Stdin) // the start signal: all editors at once
	for i := range editsPerProcess {
		e := fakeEntry(fmt.Sprintf("%s-%d", prefix, i))
		err := modlock.Edit(os.Getenv("MODLOCK_TEST_LOCKFILE"), func(entries []modlock.Entry) []modlock.Entry {
			return append(entries, e)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// TestEditProcesses runs editor processes at once on one lock file: every
// mod each of them pins must be in it at the end.
func TestEditProcesses(t *testing.T) {
	dir := t.TempDir()
	lockFile := filepath.Join(dir, "mods.lock")
	const procs = 6
	var envs [][]string
	for i := range procs {
		envs = append(envs, append(os.Environ(), fmt.Sprintf("%s=p%d", editorEnv, i), "MODLOCK_TEST_LOCKFILE="+lockFile))
	}
	runTogether(t, "editor", envs)
	entries, err := modlock.Read(lockFile)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(entries), procs*editsPerProcess; got != want {
		t.Errorf("the lock file pins %d mods, want %d", got, want)
	}
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 {
		t.Errorf("the lock file's directory holds %d files, want mods.lock alone", len(left))
	}
}

// runTogether starts this test binary once per environment in envs,
// releases them at once (each waits for its stdin to close) and waits for
// them all, reporting each that failed as "<label> <i>".
func runTogether(t *testing.T, label string, envs [][]string) {
	t.Helper()
	var cmds []*exec.Cmd
	var starts []io.Closer
	var outs []*bytes.Buffer
	for _, env := range envs {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = env
		out := new(bytes.Buffer)
		cmd.Stdout, cmd.Stderr = out, out
		start, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, starts, outs = append(cmds, cmd), append(starts, start), append(outs, out)
	}
	for _, s := range starts {
		s.Close()
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("%s %d: %v\n%s", label, i, err, outs[i])
		}
	}
}

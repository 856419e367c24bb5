package modbuild

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// keyInputs are a mod's key inputs in a workspace, with every file in
// files.
func keyInputs(files map[string]string, env map[string]string) *KeyInputs {
	vars := map[string]string{
		"GOMOD": "/src/main/go.mod", "GOWORK": "/src/go.work", "GOENV": "/home/env",
		"GOMODCACHE": "/home/modcache", "GOOS": "linux", "GOARCH": "amd64",
	}
	return &KeyInputs{
		GoPackage: "example.com/main/keymod",
		GoEnv:     vars,
		Getenv:    func(k string) string { return env[k] },
		ReadFile: func(name string) ([]byte, error) {
			if data, ok := files[filepath.ToSlash(name)]; ok {
				return []byte(data), nil
			}
			return nil, fs.ErrNotExist
		},
	}
}

func baseFiles() map[string]string {
	return map[string]string{
		"/home/env":           "GOFLAGS=-mod=mod\n",
		"/src/main/go.mod":    "module example.com/main\n\ngo 1.26.0\n",
		"/src/main/go.sum":    "example.com/x v1.0.0 h1:abc=\n",
		"/src/go.work":        "go 1.26.0\n\nuse (\n\t./main\n\t./wdep\n)\n",
		"/src/go.work.sum":    "",
		"/src/wdep/go.mod":    "module example.com/wdep\n\ngo 1.26.0\n",
		"/src/other/go.mod":   "module example.com/other\n",
		"/src/main/keymod.go": "package keymod\n",
	}
}

// Every input of the key changes it, and nothing else does: the key is a
// function of KeyInputs alone, tested without the go command.
func TestKeyCoversEveryInput(t *testing.T) {
	base := Key(keyInputs(baseFiles(), nil))
	if again := Key(keyInputs(baseFiles(), nil)); again != base {
		t.Fatalf("got %s, then %s, from the same inputs", base, again)
	}
	type change func(in *KeyInputs, files map[string]string, env map[string]string)
	cases := map[string]change{
		"the mod's package": func(in *KeyInputs, _, _ map[string]string) { in.GoPackage = "example.com/main/other" },
	}
	for _, v := range buildVars {
		cases["go env "+v] = func(in *KeyInputs, _, _ map[string]string) { in.GoEnv[v] += "x" }
	}
	for _, v := range cgoVars {
		cases["environment "+v] = func(_ *KeyInputs, _, env map[string]string) { env[v] = "-O3" }
	}
	for _, f := range []string{"/home/env", "/src/main/go.mod", "/src/main/go.sum", "/src/go.work", "/src/go.work.sum", "/src/wdep/go.mod"} {
		cases["file "+f] = func(_ *KeyInputs, files, _ map[string]string) { files[f] += "// edited\n" }
		cases["missing "+f] = func(_ *KeyInputs, files, _ map[string]string) { delete(files, f) }
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			files, env := baseFiles(), map[string]string{}
			in := keyInputs(files, env)
			c(in, files, env)
			if got := Key(in); got == base {
				t.Errorf("key unchanged: %s", got)
			}
		})
	}
	// Files outside the configuration are not inputs of the key: the
	// sources are the record's digest's.
	for _, f := range []string{"/src/other/go.mod", "/src/main/keymod.go"} {
		files := baseFiles()
		files[f] += "// edited\n"
		if got := Key(keyInputs(files, nil)); got != base {
			t.Errorf("editing %s changed the key from %s to %s", f, base, got)
		}
	}
}

// A go.work's modules are read from its use directives, in both forms.
func TestWorkspaceModules(t *testing.T) {
	got := workspaceModules(filepath.FromSlash("/w/go.work"), []byte("go 1.26\n\nuse ./a // the main one\nuse (\n\t\"./b\"\n\t/abs/c\n)\n"))
	want := []string{filepath.FromSlash("/w/a"), filepath.FromSlash("/w/b"), filepath.FromSlash("/abs/c")}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("module %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

// The digest of a build's inputs changes with every file the build reads
// or could read, and not with files it cannot.
func TestDigestCoversEveryInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		path := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("sib.go", "package sib\n")
	write("msg.txt", "msg-1")
	write("static/a.css", "a")
	inputs := []Input{{Dir: dir, Files: []string{"msg.txt", "sib.go", "static/a.css"}, Embed: []string{"msg.txt", "static"}, Trees: []string{"static"}}}
	for _, tt := range []struct {
		name    string
		change  func()
		changes bool
	}{
		{"nothing", func() {}, false},
		{"a source file", func() { write("sib.go", "package sib // 2\n") }, true},
		{"an embedded file", func() { write("msg.txt", "msg-2") }, true},
		{"a new Go file", func() { write("more.go", "package sib\n") }, true},
		{"a new C file", func() { write("more.c", "int x;\n") }, true},
		{"a new file in an embedded tree", func() { write("static/b.css", "b") }, true},
		{"a test file", func() { write("sib_test.go", "package sib\n") }, false},
		{"an ignored name", func() { write("_scratch.go", "package sib\n") }, false},
		{"an unrelated file", func() { write("notes.md", "x") }, false},
		{"a removed file", func() { os.Remove(filepath.Join(dir, "msg.txt")) }, true},
	} {
		before := Digest(inputs)
		tt.change()
		if changed := Digest(inputs) != before; changed != tt.changes {
			t.Errorf("%s: digest changed %v, want %v", tt.name, changed, tt.changes)
		}
	}
}

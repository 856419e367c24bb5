package modlock

import (
	"strings"
	"testing"

	"github.com/modkit/modkit/manifest"
)

var (
	h1A = "h1:" + strings.Repeat("A", 43) + "="
	h1B = "h1:" + strings.Repeat("B", 43) + "="
	sha = "sha256:" + strings.Repeat("0f", 32)
)

func TestFormatParse(t *testing.T) {
	entries := []Entry{
		{Mod: "example.com/weather/mod", Module: "example.com/weather", Version: "v1.2.0", Zip: h1A, GoMod: h1B, Manifest: sha},
		{Mod: "example.com/greet", Module: "example.com/greet", Version: "v0.1.0-rc.1", Zip: h1B, GoMod: h1A, Manifest: sha},
	}
	data := Format(entries)
	want := header + `
mod example.com/greet
	module   example.com/greet v0.1.0-rc.1
	zip      ` + h1B + `
	go.mod   ` + h1A + `
	manifest ` + sha + `

mod example.com/weather/mod
	module   example.com/weather v1.2.0
	zip      ` + h1A + `
	go.mod   ` + h1B + `
	manifest ` + sha + `
`
	if string(data) != want {
		t.Fatalf("Format: got\n%s\nwant\n%s", data, want)
	}
	got, err := Parse("mods.lock", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got[0].Equal(&entries[1]) || !got[1].Equal(&entries[0]) {
		t.Fatalf("Parse: got %+v, want the entries sorted by mod", got)
	}
	if rel := got[1].Rel(); rel != "mod" {
		t.Errorf("Rel: got %q, want mod", rel)
	}
}

func TestParseErrors(t *testing.T) {
	block := func(lines ...string) string { return strings.Join(lines, "\n") + "\n" }
	good := []string{"mod example.com/a", "\tmodule   example.com/a v1.0.0", "\tzip      " + h1A, "\tgo.mod   " + h1B, "\tmanifest " + sha}
	tests := []struct {
		name, data string
		want       []string
	}{
		{"no manifest", block(good[:4]...), []string{"mods.lock:1: mod example.com/a: no manifest"}},
		{"bad zip", block(good[0], good[1], "\tzip h1:xyz", good[3], good[4]), []string{`mods.lock:1: mod example.com/a: zip: "h1:xyz" is not an h1: hash`}},
		{"unknown key", block(append(good, "\tsum "+h1A)...), []string{`mods.lock:6: unknown key "sum"`}},
		{"twice", block(append(good, good...)...), []string{"mods.lock:6: mod example.com/a is locked twice (first at line 1)"}},
		{"key twice", block(append(good, "\tzip "+h1A)...), []string{"mods.lock:6: zip given twice"}},
		{"outside", block("\tzip " + h1A), []string{"mods.lock:1: indented line outside a mod block"}},
		{"bad first line", block("module example.com/a"), []string{`mods.lock:1: want a block's first line, mod PACKAGE, got "module example.com/a"`}},
		{"bad version", block(good[0], "\tmodule   example.com/a latest", good[2], good[3], good[4]), []string{"mods.lock:1: mod example.com/a: "}},
		{"not in module", block("mod example.com/b", good[1], good[2], good[3], good[4]), []string{"mods.lock:1: mod example.com/b: mod example.com/b is not a package of module example.com/a"}},
		{"module arity", block(good[0], "\tmodule example.com/a", good[2], good[3], good[4]), []string{"mods.lock:2: module takes 2 values, got 1", "mods.lock:1: mod example.com/a: no module"}},
	}
	for _, tt := range tests {
		_, err := Parse("mods.lock", []byte(tt.data))
		if err == nil {
			t.Errorf("%s: got no error, want %q", tt.name, tt.want)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: got %q, want it to contain %q", tt.name, err, w)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(string(Format([]Entry{{Mod: "example.com/a/b", Module: "example.com/a", Version: "v1.0.0", Zip: h1A, GoMod: h1B, Manifest: sha}})))
	f.Add("mod x\n\tzip h1:\n")
	f.Add(string(Format([]Entry{{Mod: "example.com/a", Module: "example.com/a", Version: "v1.0.0", Zip: h1A, GoMod: h1B, Manifest: sha, Permissions: &manifest.Permissions{
		WriteWorkspace: true, Connect: []string{"127.0.0.1:9099"}, Run: []string{"/opt/my tools/x"}, Read: []string{"$HOME/.config"}, Env: []string{"TOKEN"},
	}}})))
	f.Add("mod example.com/a\n\tmodule example.com/a v1.0.0\n\tzip " + h1A + "\n\tgo.mod " + h1A + "\n\tmanifest " + sha + "\n\tallow none\n")
	f.Fuzz(func(t *testing.T, data string) {
		entries, err := Parse("mods.lock", []byte(data))
		if err != nil {
			return
		}
		again, err := Parse("mods.lock", Format(entries))
		if err != nil {
			t.Fatalf("the formatted entries do not parse: %v", err)
		}
		if len(again) != len(entries) {
			t.Fatalf("got %d entries after formatting, want %d", len(again), len(entries))
		}
		for i := range entries {
			if !again[i].Equal(&entries[i]) {
				t.Fatalf("entry %d: got %+v after formatting, want %+v", i, again[i], entries[i])
			}
		}
	})
}

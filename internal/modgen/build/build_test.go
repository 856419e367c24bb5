package build

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/manifest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden builds the testdata mods and compares their generated files,
// which are the golden files: regenerate them with -update.
func TestGolden(t *testing.T) {
	for _, name := range []string{"kitchen"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", name)
			pkgs, diags, err := load.Packages(dir, ".")
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range diags {
				t.Fatal(d.Format(""))
			}
			out, diags := Mod(pkgs[0])
			for _, d := range diags {
				t.Errorf("got diagnostic %s, want none", d.Format(""))
			}
			if out == nil {
				t.FailNow()
			}
			// What modgen writes, manifest.Validate accepts.
			if _, err := manifest.Decode(out.Manifest); err != nil {
				t.Errorf("the manifest modgen wrote does not decode: %v", err)
			}
			for _, f := range out.Files() {
				if *update {
					if err := os.WriteFile(f.Path, f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(f.Path)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if !bytes.Equal(f.Data, want) {
					t.Errorf("%s: got different content; run with -update and review the diff\n%s", f.Path, f.Data)
				}
			}
			// The generated Go must compile with the mod.
			if out, err := exec.Command("go", "vet", "./"+dir).CombinedOutput(); err != nil {
				t.Errorf("go vet %s: %v\n%s", dir, err, out)
			}
		})
	}
}

func TestIsPresentTense(t *testing.T) {
	tests := []struct {
		label string
		want  bool
	}{
		{"Counting words…", true},
		{"Searching...", true},
		{"Counted words…", false},
		{"Counting words", false},
		{"Search…", false},
	}
	for _, tt := range tests {
		if got := isPresentTense(tt.label); got != tt.want {
			t.Errorf("isPresentTense(%q): got %v, want %v", tt.label, got, tt.want)
		}
	}
}

func TestSaysWhen(t *testing.T) {
	tests := []struct {
		desc string
		want bool
	}{
		{"Counts words. Use this when you need a count.", true},
		{"Counts words. Call this before submitting.", true},
		{"Counts words.", false},
	}
	for _, tt := range tests {
		if got := saysWhen(tt.desc); got != tt.want {
			t.Errorf("saysWhen(%q): got %v, want %v", tt.desc, got, tt.want)
		}
	}
}

package modbuild

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A mod's package digest is the same wherever its files are, and changes
// with them: an image holds the package elsewhere than the builder did.
func TestPrebuiltDigestFollowsTheFiles(t *testing.T) {
	write := func(dir string, files map[string]string) {
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	files := map[string]string{"mod.go": "package mod\n", "zz_generated.modgen.go": "package mod\n"}
	built, moved := t.TempDir(), t.TempDir()
	write(built, files)
	write(moved, files)
	r := &Record{Inputs: []Input{{Dir: filepath.Join(built, "dep"), Files: []string{"dep.go"}}, {Dir: built, Files: []string{"mod.go", "zz_generated.modgen.go"}}}}
	p := NewPrebuilt("mod", "example.com/mod", "sha256:x", built, filepath.Join("rec", "mod-key.json"), r)
	if p.Package.Dir != "" || len(p.Package.Files) != 2 || p.Record != "mod-key.json" {
		t.Fatalf("got entry %+v, want the mod's own package, relative, and the record's file name", p)
	}
	if got := p.Digest(moved); got != p.PackageDigest {
		t.Errorf("the same files elsewhere: got digest %s, want %s", got, p.PackageDigest)
	}
	write(moved, map[string]string{"extra_windows.go": "package mod\n"})
	if got := p.Digest(moved); got == p.PackageDigest {
		t.Errorf("a file added: got the built digest %s, want another", got)
	}
}

func TestIndexCheck(t *testing.T) {
	idx := &Index{GOOS: "linux", GOARCH: "amd64", Protocol: 2}
	if err := idx.Check("/c", "linux", "amd64", 2); err != nil {
		t.Errorf("same platform and protocol: got %v, want nil", err)
	}
	tests := []struct {
		goos, goarch string
		protocol     int
		want         []string
	}{
		{"linux", "arm64", 2, []string{"built for linux/amd64, and this host runs on linux/arm64", "--goos linux --goarch arm64 -o /c"}},
		{"darwin", "amd64", 2, []string{"built for linux/amd64, and this host runs on darwin/amd64"}},
		{"linux", "amd64", 3, []string{"modkit protocol 2, and this host speaks protocol 3"}},
	}
	for _, tt := range tests {
		err := idx.Check("/c", tt.goos, tt.goarch, tt.protocol)
		for _, want := range tt.want {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Check(%s/%s, protocol %d): got %v, want an error containing %q", tt.goos, tt.goarch, tt.protocol, err, want)
			}
		}
	}
}

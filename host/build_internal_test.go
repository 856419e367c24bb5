package host

import (
	"path/filepath"
	"testing"

	"github.com/modkit/modkit/manifest"
)

// The build configuration's key changes with every setting that changes
// what go build makes.
func TestConfigKeyCoversTheEnvironment(t *testing.T) {
	dir, err := filepath.Abs("testdata/mods/crashy")
	if err != nil {
		t.Fatal(err)
	}
	m := &mod{dir: dir, man: &manifest.Manifest{ID: "crashy", GoPackage: "github.com/modkit/modkit/host/testdata/mods/crashy"}}
	key := func(t *testing.T) string {
		t.Helper()
		cfg, err := m.config()
		if err != nil {
			t.Fatal(err)
		}
		return cfg.key
	}
	base := key(t)
	if again := key(t); again != base {
		t.Fatalf("key changed from %s to %s with nothing changed", base, again)
	}
	for _, tt := range []struct{ name, value string }{
		{"GOOS", "windows"},
		{"GOARCH", "arm64"},
		{"CGO_ENABLED", "0"},
		{"GOEXPERIMENT", "jsonv2"},
		{"GOFLAGS", "-tags=extra"},
		{"GOAMD64", "v3"},
		{"CGO_CFLAGS", "-O3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(tt.name, tt.value)
			if got := key(t); got == base {
				t.Errorf("%s=%s: key unchanged", tt.name, tt.value)
			}
		})
	}
}

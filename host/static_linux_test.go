package host_test

import (
	"debug/elf"
	"testing"

	"github.com/modkit/modkit/host"
)

// A mod with no cgo of its own is built statically linked: its process maps
// no libc and no dynamic loader.
func TestModBinaryIsStatic(t *testing.T) {
	t.Parallel()
	h := load(t, nil, crashyDir)
	bin, _, err := host.Binary(h.Host, "crashy")
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("mod binary %s has a dynamic loader (PT_INTERP), want a statically linked binary", bin)
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil || len(libs) != 0 {
		t.Errorf("mod binary imports libraries %v (%v), want none", libs, err)
	}
}

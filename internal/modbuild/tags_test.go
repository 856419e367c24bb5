package modbuild

import (
	"slices"
	"testing"
)

func TestBuildFlags(t *testing.T) {
	for _, tc := range []struct {
		goos, goflags string
		want          []string
	}{
		{"linux", "", []string{"-tags=netgo,osusergo"}},
		{"linux", "-mod=mod", []string{"-tags=netgo,osusergo"}},
		{"linux", "-tags=extra", []string{"-tags=extra,netgo,osusergo"}},
		{"linux", "--tags=a,b -trimpath", []string{"-tags=a,b,netgo,osusergo"}},
		{"linux", "-tags=old -tags=netgo,new", []string{"-tags=netgo,new,osusergo"}},
		{"linux", "-tags=", []string{"-tags=netgo,osusergo"}},
		{"darwin", "-tags=extra", nil},
		{"windows", "", nil},
	} {
		if got := BuildFlags(tc.goos, tc.goflags); !slices.Equal(got, tc.want) {
			t.Errorf("BuildFlags(%q, %q) = %q, want %q", tc.goos, tc.goflags, got, tc.want)
		}
	}
}

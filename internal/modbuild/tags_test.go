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
		{"linux", "", []string{"-tags=netgo,osusergo,grpcnotrace", "-ldflags=-s -w"}},
		{"linux", "-mod=mod", []string{"-tags=netgo,osusergo,grpcnotrace", "-ldflags=-s -w"}},
		{"linux", "-tags=extra", []string{"-tags=extra,netgo,osusergo,grpcnotrace", "-ldflags=-s -w"}},
		{"linux", "--tags=a,b -trimpath", []string{"-tags=a,b,netgo,osusergo,grpcnotrace", "-ldflags=-s -w"}},
		{"linux", "-tags=old -tags=netgo,new", []string{"-tags=netgo,new,osusergo,grpcnotrace", "-ldflags=-s -w"}},
		{"linux", "-tags=", []string{"-tags=netgo,osusergo,grpcnotrace", "-ldflags=-s -w"}},
		{"linux", "-ldflags=-X=main.v=1", []string{"-tags=netgo,osusergo,grpcnotrace"}},
		{"linux", "--ldflags=-w -tags=grpcnotrace", []string{"-tags=grpcnotrace,netgo,osusergo"}},
		{"darwin", "-tags=extra", []string{"-tags=extra,grpcnotrace", "-ldflags=-s -w"}},
		{"windows", "", []string{"-tags=grpcnotrace", "-ldflags=-s -w"}},
	} {
		if got := BuildFlags(tc.goos, tc.goflags); !slices.Equal(got, tc.want) {
			t.Errorf("BuildFlags(%q, %q) = %q, want %q", tc.goos, tc.goflags, got, tc.want)
		}
	}
}

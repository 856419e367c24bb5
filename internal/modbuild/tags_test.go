package modbuild

import "testing"

func TestTagsFlag(t *testing.T) {
	for _, tc := range []struct{ goflags, want string }{
		{"", "-tags=netgo,osusergo"},
		{"-mod=mod", "-tags=netgo,osusergo"},
		{"-tags=extra", "-tags=extra,netgo,osusergo"},
		{"--tags=a,b -trimpath", "-tags=a,b,netgo,osusergo"},
		{"-tags=old -tags=netgo,new", "-tags=netgo,new,osusergo"},
		{"-tags=", "-tags=netgo,osusergo"},
	} {
		if got := TagsFlag(tc.goflags); got != tc.want {
			t.Errorf("TagsFlag(%q) = %q, want %q", tc.goflags, got, tc.want)
		}
	}
}

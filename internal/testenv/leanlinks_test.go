package testenv

import "testing"

func TestLeanGOFLAGS(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"", "-ldflags=-w"},
		{"-mod=readonly", "-mod=readonly -ldflags=-w"},
		{" -mod=readonly -tags=x ", "-mod=readonly -tags=x -ldflags=-w"},
		{"-ldflags=-s", "-ldflags=-s"},
		{"-ldflags -s", "-ldflags -s"},
		{"-mod=mod --ldflags=-X=a.b=c", "-mod=mod --ldflags=-X=a.b=c"},
		{"-ldflags=-w", "-ldflags=-w"},
	} {
		if got := leanGOFLAGS(tt.in); got != tt.want {
			t.Errorf("leanGOFLAGS(%q): got %q, want %q", tt.in, got, tt.want)
		}
		if got := leanGOFLAGS(leanGOFLAGS(tt.in)); got != tt.want {
			t.Errorf("leanGOFLAGS twice (%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

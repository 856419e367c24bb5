package testenv

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a test would end.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skip(args ...any)                  { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

func TestMissing(t *testing.T) {
	tests := []struct {
		ci          string
		wantSkipped bool
	}{
		{"", true},
		{"true", false},
	}
	for _, tt := range tests {
		t.Setenv("CI", tt.ci)
		t.Setenv("MODKIT_TESTENV_UNSET", "")
		r := &recorder{}
		Getenv(r, "MODKIT_TESTENV_UNSET", "what it names")
		got := r.skipped
		if !tt.wantSkipped {
			got = r.failed
		}
		if (r.skipped != "") != tt.wantSkipped || (r.failed != "") == tt.wantSkipped {
			t.Errorf("CI=%q: got skipped %q, failed %q; want it skipped: %v", tt.ci, r.skipped, r.failed, tt.wantSkipped)
		}
		if !strings.Contains(got, "missing $MODKIT_TESTENV_UNSET: what it names") {
			t.Errorf("CI=%q: got %q, want it to name what is missing and why", tt.ci, got)
		}
	}
	t.Setenv("MODKIT_TESTENV_SET", "x")
	if r := (&recorder{}); Getenv(r, "MODKIT_TESTENV_SET", "") != "x" || r.skipped != "" || r.failed != "" {
		t.Errorf("set: got skipped %q, failed %q, want the value", r.skipped, r.failed)
	}
	r := &recorder{}
	LookPath(r, "modkit-no-such-program", "nothing needs it")
	if !strings.Contains(r.skipped+r.failed, "missing modkit-no-such-program on $PATH") {
		t.Errorf("LookPath: got skipped %q, failed %q, want the program named", r.skipped, r.failed)
	}
}

func TestModuleDir(t *testing.T) {
	t.Parallel()
	dir := ModuleDir(t)
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(dir, root) {
		t.Errorf("got %s, want a directory outside the source tree %s", dir, root)
	}
}

package host_test

import (
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/sandbox"
)

// TestConfinementRules loads hosts as on a machine without Landlock: a mod
// from the user's own sources runs, and the host says once what it does
// not enforce; an installed mod is refused unless the operator allows it;
// RequireConfinement refuses every mod, naming what is missing.
func TestConfinementRules(t *testing.T) {
	// Not parallel: it sets MODKIT_LANDLOCK_MAX_ABI.
	t.Setenv(sandbox.MaxABIEnv, "0")
	const echo, input = "quick_echo", `{"text":"x"}`
	own := load(t, nil, quickDir)
	if own.Unconfined() == nil || !strings.Contains(own.Unconfined().Error(), "read files") {
		t.Fatalf("Unconfined: got %v, want the promises not enforced", own.Unconfined())
	}
	if res := call(t, own, echo, input); res.Status != host.StatusCompleted {
		t.Errorf("own sources: got %s %q, want completed", res.Status, res.Error)
	}
	if n := strings.Count(own.logs.String(), "mods from your own sources run with the confinement this machine offers"); n != 1 {
		t.Errorf("got %d notices in the log, want 1:\n%s", n, own.logs.String())
	}
	for _, c := range []struct {
		name  string
		opts  *host.Options
		wants []string // in the failure; none for a call that completes
	}{
		{"required", &host.Options{RequireConfinement: true}, []string{"mods cannot be fully confined here", "read files", "Landlock", "--require-confinement"}},
		{"installed", &host.Options{Installed: []string{quickDir}}, []string{"mods cannot be fully confined here", "installed from mods.lock", "--allow-unconfined"}},
		{"installed and allowed", &host.Options{Installed: []string{quickDir}, AllowUnconfined: true}, nil},
		{"another mod installed", &host.Options{Installed: []string{hostileDir}}, nil},
	} {
		res := call(t, load(t, c.opts, quickDir), echo, input)
		if c.wants == nil {
			if res.Status != host.StatusCompleted {
				t.Errorf("%s: got %s %q, want completed", c.name, res.Status, res.Error)
			}
			continue
		}
		for _, want := range c.wants {
			if res.Status != host.StatusFailed || !strings.Contains(res.Error, want) {
				t.Errorf("%s: got %s %q, want failed naming %q", c.name, res.Status, res.Error, want)
			}
		}
	}
	if _, err := host.Load(nil, &host.Options{RequireConfinement: true, AllowUnconfined: true}); err == nil {
		t.Error("RequireConfinement with AllowUnconfined: got no error, want one")
	}
}

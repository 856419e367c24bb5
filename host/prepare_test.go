package host_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
)

func TestCheck(t *testing.T) {
	h := load(t, nil, quickDir)
	for _, tc := range []struct {
		input string
		want  []string
	}{
		{`{"logs": 3}`, nil},
		{`{"logs": -1}`, []string{"/logs: "}},
		{`{"logs": "x"}`, []string{"/logs: "}},
		{`{`, []string{"/: invalid JSON at byte 1"}},
	} {
		problems, err := h.Check(context.Background(), "quick_activity", []byte(tc.input))
		if err != nil {
			t.Fatal(err)
		}
		if len(problems) != len(tc.want) {
			t.Fatalf("Check(%s): got %q, want %d problems", tc.input, problems, len(tc.want))
		}
		for i, p := range problems {
			if !strings.HasPrefix(p, tc.want[i]) {
				t.Errorf("Check(%s): got %q, want it to start with %q", tc.input, p, tc.want[i])
			}
		}
	}
	if _, err := h.Check(context.Background(), "quick_nope", []byte(`{}`)); !errors.Is(err, host.ErrUnknownTool) {
		t.Errorf("unknown tool: got %v, want ErrUnknownTool", err)
	}
}

// TestCheckAsksRunningMod: once the mod runs, Check also finds what the
// input type's Validate method refuses, as a call would.
func TestCheckAsksRunningMod(t *testing.T) {
	h := load(t, nil, clientsideDir)
	input := []byte(`{"choices":["a","a"]}`)
	if problems, err := h.Check(context.Background(), "clientside_pick", input); err != nil || len(problems) != 0 {
		t.Fatalf("before the mod runs: got %q, %v; want no problems (the schema holds)", problems, err)
	}
	if err := h.Start(context.Background(), "clientside"); err != nil {
		t.Fatal(err)
	}
	problems, err := h.Check(context.Background(), "clientside_pick", input)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/choices: a is offered twice"}; !slices.Equal(problems, want) {
		t.Errorf("got %q, want %q", problems, want)
	}
}

func TestStart(t *testing.T) {
	h := load(t, &host.Options{CacheDir: t.TempDir()}, quickDir, "testdata/mods/broken")
	ctx := context.Background()
	if err := h.Start(ctx, "quick"); err != nil {
		t.Fatalf("Start(quick): %v", err)
	}
	err := h.Start(ctx, "broken")
	var me *host.ModError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "broken.go:9:17") {
		t.Errorf("Start(broken): got %v, want a ModError naming broken.go:9:17", err)
	}
	if err := h.Start(ctx, "nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("Start(nope): got %v, want an error naming it", err)
	}
}

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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	// broken builds in a cache of its own; quick is copied in, built.
	h := load(t, &host.Options{CacheDir: copyCache(t, quickDir)}, quickDir, "testdata/mods/broken")
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

// TestCheckSpeaksAsCall: the host's check (Check, before the mod judges)
// and the mod's generated validator (a call) give one list, however odd
// the input: none at all, integers beyond a 64-bit float, numbers written
// too long to judge.
func TestCheckSpeaksAsCall(t *testing.T) {
	t.Parallel()
	h := loadInProcess(t, nil)
	for _, tc := range []struct {
		name, input string
		want        []string
	}{
		{"no input", ``, []string{`/: missing required property "text"`}},
		{"integer beyond a float", `{"text":"a","times":1e400}`, []string{"/times: must be at most 5, got 1e400"}},
		{"negative integer beyond a float", `{"text":"a","times":-1e400}`, []string{"/times: must be at least 0, got -1e400"}},
		{"long fraction", `{"text":"a","times":0.` + strings.Repeat("1", 1<<20) + `}`, []string{"/times: must be a number at most 1000 characters long, got 1048578"}},
		{"long number as text", `{"text":` + strings.Repeat("9", 1001) + `}`, []string{
			"/text: must be a string, got a number",
			"/text: must be a number at most 1000 characters long, got 1001",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems, err := h.Check(context.Background(), "crashy_echo", []byte(tc.input))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(problems, tc.want) {
				t.Errorf("Check: got %q, want %q", problems, tc.want)
			}
			res := call(t, h, "crashy_echo", tc.input)
			wantStatus(t, res, host.StatusFailed)
			if want := "invalid input for tool crashy_echo:\n  " + strings.Join(tc.want, "\n  "); res.Error != want {
				t.Errorf("Call: got error\n%s\nwant\n%s", res.Error, want)
			}
		})
	}
}

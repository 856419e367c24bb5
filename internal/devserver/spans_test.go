package devserver_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/modkit/modkit/internal/devserver"
	"github.com/modkit/modkit/internal/telemetry"
)

type spanJSON struct {
	Name       string  `json:"name"`
	Lane       string  `json:"lane"`
	Depth      int     `json:"depth"`
	StartMS    float64 `json:"startMs"`
	DurationMS float64 `json:"durationMs"`
	Error      string  `json:"error"`
}

// TestTimeline: a call's spans, the host's and those the mod's process sent
// back, make its timeline, nested and in order; a hook's refusal shows on
// the hooks lane.
func TestTimeline(t *testing.T) {
	ctx := context.Background()
	spans := devserver.NewSpans()
	tel, err := telemetry.Setup(ctx, &telemetry.Options{Processor: spans, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	f := startWith(t, spans, crashyDir)

	id := f.call("crashy_echo", `{"text":"hi"}`, "")
	if o := f.outcome(id); o["status"] != "completed" || o["traced"] != true {
		t.Fatalf("got outcome %v, want completed and traced", o)
	}
	var got []spanJSON
	f.decode("GET", "/api/calls/"+id+"/spans", nil, http.StatusOK, &got)
	byName := map[string]spanJSON{}
	for i, s := range got {
		byName[s.Name] = s
		if i > 0 && s.StartMS < got[i-1].StartMS {
			t.Errorf("span %q starts at %v ms, before %q at %v ms", s.Name, s.StartMS, got[i-1].Name, got[i-1].StartMS)
		}
	}
	for _, want := range []spanJSON{
		{Name: "workbench call crashy_echo", Lane: "host", Depth: 0},
		{Name: "call crashy_echo", Lane: "host", Depth: 1},
		{Name: "run_tool crashy_echo", Lane: "mod", Depth: 2},
	} {
		s, ok := byName[want.Name]
		if !ok {
			t.Errorf("no span %q in %+v", want.Name, got)
			continue
		}
		if s.Lane != want.Lane || s.Depth != want.Depth {
			t.Errorf("span %q: lane %s depth %d, want lane %s depth %d", want.Name, s.Lane, s.Depth, want.Lane, want.Depth)
		}
	}

	id = f.call("crashy_blocked", `{}`, "")
	f.outcome(id)
	f.decode("GET", "/api/calls/"+id+"/spans", nil, http.StatusOK, &got)
	var hooks bool
	for _, s := range got {
		hooks = hooks || s.Lane == "hooks" && s.Error != ""
	}
	if !hooks {
		t.Errorf("a hook's refusal is not on the hooks lane: %+v", got)
	}
}

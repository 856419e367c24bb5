package manifest

import (
	"strings"
	"testing"
)

func TestDecodeRuns(t *testing.T) {
	t.Parallel()
	for _, runs := range []string{"client", "either"} {
		m, err := Decode(edit(t, func(d map[string]any) { item(d, "tools", 0)["runs"] = runs }))
		if err != nil {
			t.Fatalf("runs %q: %v", runs, err)
		}
		if got := m.Tools[0].Runs; string(got) != runs {
			t.Errorf("got runs %q, want %q", got, runs)
		}
	}
	_, err := Decode(edit(t, func(d map[string]any) { item(d, "tools", 0)["runs"] = "server" }))
	if err == nil || !strings.Contains(err.Error(), `tools[0] "research_word_count": runs "server" is neither "client" nor "either"`) {
		t.Errorf("runs \"server\": got %v, want an error naming the tool's runs", err)
	}
	m := sample()
	m.Tools[0].Runs = "server"
	if err := Validate(m); err == nil || !strings.Contains(err.Error(), `runs "server" is neither "client" nor "either"`) {
		t.Errorf("Validate: got %v", err)
	}
}

func TestRuns(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		runs          Runs
		inClient, mod bool
	}{
		{RunsInMod, false, true},
		{RunsInClient, true, false},
		{RunsEither, true, true},
	} {
		if tt.runs.InClient() != tt.inClient || tt.runs.InMod() != tt.mod {
			t.Errorf("%q: got InClient %v, InMod %v; want %v, %v", tt.runs, tt.runs.InClient(), tt.runs.InMod(), tt.inClient, tt.mod)
		}
	}
}

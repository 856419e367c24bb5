package modtest_test

import (
	"strings"
	"testing"

	"github.com/modkit/modkit/host/testdata/mods/asking"
	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

func TestScriptedAnswers(t *testing.T) {
	ada := sdk.Answer{Action: sdk.Accept, Values: map[string]any{"name": "Ada"}}
	tests := []struct {
		name, tool string
		answers    map[string]any
		want       modtest.Status
		text       string
		asked      []string
		runs       int
	}{
		{"answered", "asking_greet", map[string]any{"name": ada, "color": sdk.Answer{Action: sdk.Accept, Values: map[string]any{"color": "red"}}},
			modtest.StatusCompleted, "Hello Ada, red", []string{"name", "color"}, 3},
		{"declined", "asking_greet", map[string]any{"name": sdk.Answer{Action: sdk.Decline}}, modtest.StatusCompleted, "no name: decline", []string{"name"}, 2},
		{"not asked", "asking_greet", nil, modtest.StatusCompleted,
			"no name: the question could not be asked: the client cannot ask a person to fill a form", nil, 1},
		{"no answer scripted", "asking_greet", map[string]any{"name": ada}, modtest.StatusFailed,
			`Tool failed: modtest: no answer in Options.Answers for question "color" (form: Which colour?)`, []string{"name", "color"}, 2},
		{"refused", "asking_greet", map[string]any{"name": sdk.Answer{Action: sdk.Accept, Values: map[string]any{"name": 5}}}, modtest.StatusFailed,
			"Tool failed: modtest: Options.Answers[\"name\"] is refused: the answer does not fit the form:\n  /content/name: must be a string, got a number", []string{"name"}, 1},
		{"wrong type", "asking_greet", map[string]any{"name": sdk.Sampled{Text: "x"}}, modtest.StatusFailed,
			`Tool failed: modtest: Options.Answers["name"]: an sdk.Sampled answers a sample question, not a form question`, []string{"name"}, 1},
		{"never asked", "asking_url", map[string]any{"signin": sdk.Answer{Action: sdk.Accept}, "extra": ada}, modtest.StatusFailed,
			`Tool failed: modtest: Options.Answers answers question "extra", which the handler never asked`, []string{"signin"}, 2},
		{"roots by key", "asking_roots", map[string]any{"signin": sdk.Answer{Action: sdk.Accept}, "where": []sdk.Root{{URI: "file:///w"}}},
			modtest.StatusCompleted, "roots: file:///w", []string{"signin", "where"}, 3},
		{"model and roots", "asking_model", map[string]any{"capital": sdk.Sampled{Text: "Paris"}, "roots": []sdk.Root{{URI: "file:///w"}}},
			modtest.StatusCompleted, "Paris | file:///w", []string{"capital", "roots"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := modtest.Call(asking.Modkit(), tt.tool, `{}`, &modtest.Options{Answers: tt.answers})
			if err != nil {
				t.Fatal(err)
			}
			if out.Status != tt.want || out.Text != tt.text {
				t.Errorf("got %s %q, want %s %q", out.Status, out.Text, tt.want, tt.text)
			}
			var asked []string
			for _, q := range out.Questions {
				asked = append(asked, q.Key)
			}
			if strings.Join(asked, ",") != strings.Join(tt.asked, ",") || out.Runs != tt.runs {
				t.Errorf("asked %q in %d runs, want %q in %d", asked, out.Runs, tt.asked, tt.runs)
			}
		})
	}
}

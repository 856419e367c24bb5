package monthago

import (
	"testing"

	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk/modtest"
)

func TestGreet(t *testing.T) {
	out := modtest.Run(t, Modkit(), "monthago_greet", `{"name": "Ada"}`, nil)
	if want := "Hello, Ada!"; out.Status != modtest.Completed || out.Text != want {
		t.Errorf("got %s %q, want completed %q", out.Status, out.Text, want)
	}
}

func TestGreetNeedsAName(t *testing.T) {
	out := modtest.Run(t, Modkit(), "monthago_greet", `{"name": ""}`, nil)
	switch out.Status {
	case modtest.Failed:
	case modtest.Completed, modtest.Cancelled, modtest.Denied:
		t.Errorf("got %s %q, want failed", out.Status, out.Text)
	}
}

func TestTemplate(t *testing.T) {
	var tmpl *manifest.URITemplate
	tmpl, err := manifest.ParseURITemplate("monthago://people/{name}")
	if err != nil {
		t.Fatal(err)
	}
	if vars, ok := tmpl.Match("monthago://people/Ada"); !ok || vars["name"] != "Ada" {
		t.Errorf("got %v %v, want name Ada", vars, ok)
	}
}

package approval

import (
	"strings"
	"testing"

	"github.com/modkit/modkit/manifest"
)

// For copies the tool's annotations, so an approver that changes them
// changes no other call's.
func TestForCopiesAnnotations(t *testing.T) {
	man := &manifest.Tool{Name: "erase", Title: "Erase", Annotations: &manifest.Annotations{Destructive: true}}
	r := For(man, "Erase x")
	if r.Tool != "erase" || r.Title != "Erase" || r.Reason != "Erase x" {
		t.Fatalf("got %+v, want the tool's name, title and the reason", r)
	}
	r.Annotations.Destructive = false
	if !man.Annotations.Destructive {
		t.Error("changing the request's annotations changed the tool's")
	}
	if For(&manifest.Tool{Name: "x"}, "r").Annotations != nil {
		t.Error("got annotations for a tool that declares none")
	}
}

// The question names a destructive tool as such.
func TestQuestion(t *testing.T) {
	plain := (&Request{Tool: "t", Reason: "Do it"}).Question()
	destructive := For(&manifest.Tool{Name: "t", Annotations: &manifest.Annotations{Destructive: true}}, "Do it").Question()
	if !strings.Contains(plain, "Do it") || plain == destructive {
		t.Errorf("got %q and %q, want the reason in both and a destructive tool said to be one", plain, destructive)
	}
}

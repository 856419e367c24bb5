package main

import (
	"strings"
	"testing"

	"github.com/modkit/modkit/manifest"
)

// TestWriteOffers: get shows each thing a mod offers, resource templates
// too.
func TestWriteOffers(t *testing.T) {
	man := &manifest.Manifest{ID: "notes", Description: "Keeps notes.",
		Resources:         []manifest.Resource{{URI: "notes://index", Name: "index", Description: "The index. Of every note."}},
		ResourceTemplates: []manifest.ResourceTemplate{{URITemplate: "notes://note/{id}", Name: "note", Description: "One note by id."}},
	}
	var b strings.Builder
	writeOffers(&b, man)
	for _, want := range []string{"  resource notes://index: The index.\n", "  resource template notes://note/{id}: One note by id.\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("got\n%s\nwant a line %q", b.String(), want)
		}
	}
}

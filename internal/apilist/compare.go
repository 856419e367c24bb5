package apilist

import (
	"slices"
	"strings"
)

// Parse returns the lines of an API file: every line but blank ones and
// comments (#).
func Parse(data string) []string {
	var lines []string
	for _, l := range strings.Split(data, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}

// Diff is how a package's API differs from a recorded one.
type Diff struct {
	// Added are the lines only the current API has.
	Added []string
	// Removed are the lines only the recorded API has: names removed, or
	// changed (the new line is among Added).
	Removed []string
	// Unannounced are those of Removed whose name the changelog does not
	// name.
	Unannounced []string
}

// Compare compares the current API with the recorded one, and the lines
// removed with the changelog's text.
func Compare(recorded, current []string, changelog string) Diff {
	var d Diff
	for _, l := range current {
		if !slices.Contains(recorded, l) {
			d.Added = append(d.Added, l)
		}
	}
	for _, l := range recorded {
		if slices.Contains(current, l) {
			continue
		}
		d.Removed = append(d.Removed, l)
		if name := NameOf(l); name == "" || !Names(changelog, name) {
			d.Unannounced = append(d.Unannounced, l)
		}
	}
	return d
}

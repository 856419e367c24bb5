package research

import (
	"fmt"
	"html"
	"strings"

	"github.com/modkit/modkit/sdk"
)

// searchText is what the model reads: one "path:line excerpt" line per hit,
// or a plain sentence when nothing matched.
func searchText(r SearchResult) string {
	files := plural(r.FilesSearched, "file", "files")
	if len(r.Hits) == 0 {
		return fmt.Sprintf("No matches for %q in %s.", r.Query, files)
	}
	var b strings.Builder
	if r.Truncated {
		fmt.Fprintf(&b, "First %s for %q (more exist; narrow the query or raise limit), in %s searched:\n",
			plural(len(r.Hits), "match", "matches"), r.Query, files)
	} else {
		fmt.Fprintf(&b, "%s for %q in %s:\n", plural(len(r.Hits), "match", "matches"), r.Query, files)
	}
	for _, h := range r.Hits {
		fmt.Fprintf(&b, "%s:%d %s\n", h.Path, h.Line, h.Excerpt)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// renderSearch is the HTML a person sees, for each phase of the call.
func renderSearch(s sdk.ViewState[SearchInput, SearchResult]) string {
	var b strings.Builder
	b.WriteString(`<div class="research-search" style="font-family: system-ui, sans-serif; font-size: 14px">`)
	query := html.EscapeString(s.Input.Query)
	where := "the workspace"
	if s.Input.Path != "" {
		where = "<code>" + html.EscapeString(s.Input.Path) + "</code>"
	}
	mode := "text"
	if s.Input.Regex {
		mode = "pattern"
	}
	switch s.Phase {
	case sdk.PhasePreparing:
		if query == "" {
			b.WriteString(`<p>Preparing a search…</p>`)
		} else {
			fmt.Fprintf(&b, `<p>Preparing a search for the %s <code>%s</code>…</p>`, mode, query)
		}
	case sdk.PhaseRunning:
		fmt.Fprintf(&b, `<p>Searching %s for the %s <code>%s</code>…</p>`, where, mode, query)
	case sdk.PhaseCompleted:
		r := s.Result
		if len(r.Hits) == 0 {
			fmt.Fprintf(&b, `<p>No matches for <code>%s</code> in %s.</p>`,
				html.EscapeString(r.Query), plural(r.FilesSearched, "file", "files"))
			break
		}
		fmt.Fprintf(&b, `<p>%s for <code>%s</code> in %s.</p>`,
			plural(len(r.Hits), "match", "matches"), html.EscapeString(r.Query), plural(r.FilesSearched, "file", "files"))
		// Each cell keeps a gap on both sides: without it a line number
		// runs into the text after it ("67var Mod").
		const cell = `style="padding: 2px 8px; vertical-align: top"`
		b.WriteString(`<table style="border-collapse: collapse"><thead><tr>` +
			`<th align="left" ` + cell + `>File</th><th align="right" ` + cell + `>Line</th><th align="left" ` + cell + `>Text</th>` +
			`</tr></thead><tbody>`)
		for _, h := range r.Hits {
			fmt.Fprintf(&b, `<tr><td %s><code>%s</code></td><td align="right" %s>%d</td><td %s><code>%s</code></td></tr>`,
				cell, html.EscapeString(h.Path), cell, h.Line, cell, html.EscapeString(h.Excerpt))
		}
		b.WriteString(`</tbody></table>`)
		if r.Truncated {
			b.WriteString(`<p><em>More lines matched than the limit allows; only the first are shown.</em></p>`)
		}
	case sdk.PhaseFailed:
		fmt.Fprintf(&b, `<p style="color: #b00020">The search for <code>%s</code> failed: %s</p>`,
			query, html.EscapeString(s.Error))
	default:
		fmt.Fprintf(&b, `<p>Unknown phase %s.</p>`, html.EscapeString(string(s.Phase)))
	}
	b.WriteString(`</div>`)
	return b.String()
}

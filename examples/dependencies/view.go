package dependencies

import (
	"fmt"
	"html"
	"strings"

	"github.com/modkit/modkit/sdk"
)

// inspectText is what the model reads.
func inspectText(r InspectResult) string {
	var b strings.Builder
	scope := fmt.Sprintf("%s in %s", count(r.PackagesScanned, "package", "packages"), moduleList(r.Modules))
	if !r.Found {
		fmt.Fprintf(&b, "No package %q in the workspace (%s), and none of its packages imports it.", r.Package, scope)
		if len(r.Suggestions) == 0 {
			b.WriteString(" No close matches.")
		} else {
			b.WriteString(" Close matches:")
			for _, s := range r.Suggestions {
				b.WriteString("\n" + s)
			}
		}
		return b.String()
	}
	if len(r.Direct) == 0 {
		fmt.Fprintf(&b, "No workspace package imports %s (%s scanned).", r.Package, scope)
		return b.String()
	}
	fmt.Fprintf(&b, "%s import %s directly (%s scanned):", count(len(r.Direct), "package", "packages"), r.Package, scope)
	if len(r.Direct) == 1 {
		b.Reset()
		fmt.Fprintf(&b, "1 package imports %s directly (%s scanned):", r.Package, scope)
	}
	for _, d := range r.Direct {
		b.WriteString("\n" + d.Package)
	}
	if len(r.Indirect) > 0 {
		fmt.Fprintf(&b, "\n%s import it indirectly:", count(len(r.Indirect), "more", "more"))
		for _, d := range r.Indirect {
			b.WriteString("\n" + strings.Join(d.Chain, " → "))
		}
	}
	return b.String()
}

// renderInspect is the HTML a person sees, for each phase of the call.
func renderInspect(s sdk.ViewState[InspectInput, InspectResult]) string {
	var b strings.Builder
	b.WriteString(`<div class="dependencies" style="font-family: system-ui, sans-serif; font-size: 14px">`)
	pkg := html.EscapeString(s.Input.Package)
	switch s.Phase {
	case sdk.PhasePreparing:
		b.WriteString(`<p>Preparing to read the import graph…</p>`)
	case sdk.PhaseRunning:
		fmt.Fprintf(&b, `<p>Finding what imports <code>%s</code>…</p>`, pkg)
	case sdk.PhaseCompleted:
		r := s.Result
		switch {
		case !r.Found:
			fmt.Fprintf(&b, `<p>No package <code>%s</code> in the workspace.</p>`, html.EscapeString(r.Package))
			if len(r.Suggestions) > 0 {
				b.WriteString(`<p>Did you mean:</p><ul>`)
				for _, sug := range r.Suggestions {
					fmt.Fprintf(&b, `<li><code>%s</code></li>`, html.EscapeString(sug))
				}
				b.WriteString(`</ul>`)
			}
		case len(r.Direct) == 0:
			fmt.Fprintf(&b, `<p>Nothing in the workspace imports <code>%s</code>.</p>`, html.EscapeString(r.Package))
		default:
			fmt.Fprintf(&b, `<p>Imported directly by %s:</p><ul>`, count(len(r.Direct), "package", "packages"))
			for _, d := range r.Direct {
				fmt.Fprintf(&b, `<li><code>%s</code> <small>%s</small></li>`, html.EscapeString(d.Package), html.EscapeString(d.Dir))
			}
			b.WriteString(`</ul>`)
			if len(r.Indirect) > 0 {
				fmt.Fprintf(&b, `<p>And indirectly by %s:</p><ul>`, count(len(r.Indirect), "package", "packages"))
				for _, d := range r.Indirect {
					chain := make([]string, len(d.Chain))
					for i, c := range d.Chain {
						chain[i] = "<code>" + html.EscapeString(c) + "</code>"
					}
					fmt.Fprintf(&b, `<li>%s</li>`, strings.Join(chain, " → "))
				}
				b.WriteString(`</ul>`)
			}
		}
	case sdk.PhaseFailed:
		fmt.Fprintf(&b, `<p style="color: #b00020">Could not read the import graph for <code>%s</code>: %s</p>`,
			pkg, html.EscapeString(s.Error))
	}
	b.WriteString(`</div>`)
	return b.String()
}

func moduleList(mods []string) string {
	switch len(mods) {
	case 0:
		return "no module"
	case 1:
		return "module " + mods[0]
	default:
		return "modules " + strings.Join(mods, ", ")
	}
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

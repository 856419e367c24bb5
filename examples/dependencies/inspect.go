package dependencies

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/modkit/modkit/sdk"
)

// InspectInput names the package whose dependents dependencies_inspect lists.
type InspectInput struct {
	// Package is the import path of a package, such as
	// "example.com/app/internal/store". Packages outside the workspace
	// ("fmt", a dependency) work too: their importers are listed.
	Package string `json:"package" jsonschema:"minLength=1,maxLength=500"`
	// Transitive also lists the packages that import it indirectly, each with
	// its chain of imports.
	Transitive bool `json:"transitive,omitempty"`
	// Tests counts the imports of _test.go files too.
	Tests bool `json:"tests,omitempty"`
}

// Validate checks that package looks like an import path.
func (in InspectInput) Validate() error {
	p := in.Package
	if strings.TrimSpace(p) != p || strings.ContainsAny(p, " \t\n\\") {
		return fmt.Errorf("/package: %q is not an import path: it contains spaces or backslashes", p)
	}
	if strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || strings.Contains(p, "//") {
		return fmt.Errorf("/package: %q is not an import path: write it like example.com/app/store", p)
	}
	for _, part := range strings.Split(p, "/") {
		if part == "." || part == ".." {
			return fmt.Errorf("/package: %q is not an import path: it has %q in it", p, part)
		}
	}
	return nil
}

// InspectResult lists what depends on a package.
type InspectResult struct {
	// Package is the import path asked about.
	Package string `json:"package"`
	// Found is false when no workspace package has that path or imports it.
	Found bool `json:"found"`
	// InWorkspace is true when the package is one of the workspace's own.
	InWorkspace bool `json:"inWorkspace"`
	// Modules are the module paths of the workspace.
	Modules []string `json:"modules"`
	// PackagesScanned is how many workspace packages were read.
	PackagesScanned int `json:"packagesScanned"`
	// Direct are the packages that import it themselves.
	Direct []Dependent `json:"direct"`
	// Indirect are the packages that import it only through others; listed
	// only when transitive was asked for.
	Indirect []Dependent `json:"indirect,omitempty"`
	// Suggestions are close matches, when the package was not found.
	Suggestions []string `json:"suggestions,omitempty"`
}

// Dependent is a package that depends on the one asked about.
type Dependent struct {
	// Package is the dependent's import path.
	Package string `json:"package"`
	// Dir is its directory, relative to the workspace root.
	Dir string `json:"dir"`
	// Chain is the shortest chain of imports from the dependent to the
	// package asked about, both included.
	Chain []string `json:"chain"`
}

// inspectTool runs the analysis for the model.
func inspectTool(tc *sdk.ToolContext, in InspectInput) (InspectResult, error) {
	tc.Title("Dependents of " + in.Package)
	root, err := tc.Workspace()
	if err != nil {
		return InspectResult{Package: in.Package, Direct: []Dependent{}, Modules: []string{}}, err
	}
	return inspect(tc.Context(), root, in, tc)
}

// depsSlash runs the analysis for a person typing "/deps <import path>".
func depsSlash(ctx context.Context, env *sdk.Env, text string) (string, error) {
	in := InspectInput{Package: strings.TrimSpace(text), Transitive: true}
	if in.Package == "" {
		return "", errors.New("usage: /deps <import path>")
	}
	if err := in.Validate(); err != nil {
		return "", errors.New(strings.TrimPrefix(err.Error(), "/package: "))
	}
	root, err := env.Session.OpenWorkspace()
	if err != nil {
		return "", err
	}
	defer root.Close()
	res, err := inspect(ctx, root, in, discard{})
	if err != nil {
		return "", err
	}
	return inspectText(res), nil
}

type discard struct{}

func (discard) Status(string) {}
func (discard) Log(string)    {}

// inspect loads the workspace's import graph and walks it backwards from
// in.Package.
func inspect(ctx context.Context, root *os.Root, in InspectInput, p progress) (InspectResult, error) {
	res := InspectResult{Package: in.Package, Direct: []Dependent{}, Modules: []string{}}
	p.Status("Finding the workspace's modules…")
	g, err := loadGraph(ctx, root, in.Tests, p)
	if err != nil {
		return res, err
	}
	for _, m := range g.modules {
		res.Modules = append(res.Modules, m.path)
	}
	res.PackagesScanned = len(g.pkgs)
	_, res.InWorkspace = g.pkgs[in.Package]
	_, imported := g.importer[in.Package]
	res.Found = res.InWorkspace || imported
	if !res.Found {
		res.Suggestions = closeMatches(in.Package, g.candidates(), 5)
		return res, nil
	}

	// Breadth-first over "is imported by" gives each dependent its shortest
	// chain; next[x] is the package x imports on its way to the target.
	next := map[string]string{in.Package: ""}
	dist := map[string]int{in.Package: 0}
	queue := []string{in.Package}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if dist[cur] >= 1 && !in.Transitive {
			continue
		}
		for _, imp := range g.importer[cur] {
			if _, seen := dist[imp]; seen {
				continue
			}
			dist[imp] = dist[cur] + 1
			next[imp] = cur
			queue = append(queue, imp)
		}
	}
	var names []string
	for name := range dist {
		if name != in.Package {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		d := Dependent{Package: name, Dir: g.pkgs[name].dir}
		for x := name; x != ""; x = next[x] {
			d.Chain = append(d.Chain, x)
		}
		if dist[name] == 1 {
			res.Direct = append(res.Direct, d)
		} else {
			res.Indirect = append(res.Indirect, d)
		}
	}
	p.Status(fmt.Sprintf("Read %d packages.", res.PackagesScanned))
	return res, nil
}

// candidates are the import paths a query may have meant: the workspace's
// packages and everything they import.
func (g *graph) candidates() []string {
	set := map[string]bool{}
	for p := range g.pkgs {
		set[p] = true
	}
	for p := range g.importer {
		set[p] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// closeMatches returns up to n candidates closest to query: those whose path
// ends with it or shares its last element first, then those within a small
// edit distance, leaving out any much further than the best.
func closeMatches(query string, candidates []string, n int) []string {
	type scored struct {
		path  string
		score int
	}
	q := strings.ToLower(query)
	qLast := lastElem(q)
	var found []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		score := -1
		switch {
		case strings.HasSuffix(lc, "/"+q) || strings.HasSuffix(q, "/"+lc):
			score = 0
		case lastElem(lc) == qLast:
			score = 1
		default:
			if d := distance(q, lc); d <= max(2, len(qLast)/3) {
				score = 1 + d
			}
			if dl := distance(qLast, lastElem(lc)); dl <= 2 && len(qLast) >= 3 && (score < 0 || 2+dl < score) {
				score = 2 + dl
			}
		}
		if score >= 0 {
			found = append(found, scored{c, score})
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].score != found[j].score {
			return found[i].score < found[j].score
		}
		return found[i].path < found[j].path
	})
	// Far worse matches than the best one are noise.
	var out []string
	for i := 0; i < len(found) && i < n && found[i].score <= found[0].score+1; i++ {
		out = append(out, found[i].path)
	}
	return out
}

func lastElem(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// distance is the Levenshtein distance between a and b, by rune.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

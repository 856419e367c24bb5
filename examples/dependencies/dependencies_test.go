package dependencies

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

// generated is the mod as the runtime sees it, with modgen's validators.
func generated() *sdk.Generated { return Modkit() }

func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func goFile(pkg string, imports ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport (\n", pkg)
	for _, imp := range imports {
		fmt.Fprintf(&b, "\t%q\n", imp)
	}
	b.WriteString(")\n\nfunc unused() {}\n")
	return b.String()
}

// app is a module with a small import graph:
// cmd/server → api → store → fmt, cmd/tool → api and store.
func app(t *testing.T) string {
	return workspace(t, map[string]string{
		"go.mod":                  "// The app.\nmodule example.com/app // trailing comment\n\ngo 1.26\n",
		"store/store.go":          goFile("store", "fmt"),
		"store/store_test.go":     goFile("store", "testing", "example.com/app/lonely"),
		"api/api.go":              goFile("api", "example.com/app/store", "net/http"),
		"cmd/server/main.go":      goFile("main", "example.com/app/api"),
		"cmd/tool/main.go":        goFile("main", "example.com/app/api", "example.com/app/store"),
		"lonely/lonely.go":        goFile("lonely"),
		"util/util.go":            goFile("util"),
		"util/broken.go":          "package util\nimport (\n",
		"testdata/x/x.go":         goFile("x", "example.com/app/store"),
		"vendor/v/v.go":           goFile("v", "example.com/app/store"),
		"_old/o.go":               goFile("o", "example.com/app/store"),
		"nested/go.mod":           "module example.com/nested\n",
		"nested/n.go":             goFile("nested", "example.com/app/store"),
		"docs/readme.md":          "not go",
		"api/.hidden/h.go":        goFile("h", "example.com/app/store"),
		"cmd/server/main_test.go": goFile("main", "example.com/app/util"),
	})
}

func inspectRun(t *testing.T, dir, input string) (*modtest.Outcome, InspectResult) {
	t.Helper()
	out := modtest.Run(t, generated(), "dependencies_inspect", input, &modtest.Options{Workspace: dir})
	var r InspectResult
	if out.Status == modtest.StatusCompleted {
		if err := json.Unmarshal(out.Result, &r); err != nil {
			t.Fatalf("decode result %s: %v", out.Result, err)
		}
	}
	return out, r
}

func packages(ds []Dependent) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Package)
	}
	return out
}

func TestInspectDirect(t *testing.T) {
	out, r := inspectRun(t, app(t), `{"package":"example.com/app/store"}`)
	if out.Status != modtest.StatusCompleted {
		t.Fatalf("got %s %q, want completed", out.Status, out.Text)
	}
	if got, want := packages(r.Direct), []string{"example.com/app/api", "example.com/app/cmd/tool"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got direct %v, want %v", got, want)
	}
	if r.Indirect != nil {
		t.Errorf("got indirect %v without transitive, want none", r.Indirect)
	}
	if !r.Found || !r.InWorkspace || r.PackagesScanned != 6 {
		t.Errorf("got found=%v inWorkspace=%v scanned=%d, want true true 6", r.Found, r.InWorkspace, r.PackagesScanned)
	}
	want := "2 packages import example.com/app/store directly (6 packages in module example.com/app scanned):\nexample.com/app/api\nexample.com/app/cmd/tool"
	if out.Text != want {
		t.Errorf("got text:\n%s\nwant:\n%s", out.Text, want)
	}
	if r.Direct[0].Dir != "api" || !reflect.DeepEqual(r.Direct[0].Chain, []string{"example.com/app/api", "example.com/app/store"}) {
		t.Errorf("got %+v, want dir api and a two-step chain", r.Direct[0])
	}
	if logs := fmt.Sprint(out.Activity.Log); !strings.Contains(logs, "Skipped util/broken.go: it does not parse.") {
		t.Errorf("got log %s, want the broken file logged", logs)
	}
}

func TestInspectTransitive(t *testing.T) {
	out, r := inspectRun(t, app(t), `{"package":"example.com/app/store","transitive":true}`)
	if out.Status != modtest.StatusCompleted {
		t.Fatalf("got %s %q", out.Status, out.Text)
	}
	if len(r.Indirect) != 1 {
		t.Fatalf("got indirect %v, want only cmd/server", packages(r.Indirect))
	}
	if got, want := r.Indirect[0].Chain, []string{"example.com/app/cmd/server", "example.com/app/api", "example.com/app/store"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got chain %v, want %v", got, want)
	}
	if !strings.HasSuffix(out.Text, "1 more import it indirectly:\nexample.com/app/cmd/server → example.com/app/api → example.com/app/store") {
		t.Errorf("got text:\n%s\nwant the chain at the end", out.Text)
	}
}

func TestInspectCases(t *testing.T) {
	dir := app(t)
	tests := []struct {
		name, input string
		wantDirect  []string
		wantText    string
	}{
		{"standard library", `{"package":"net/http"}`, []string{"example.com/app/api"}, "1 package imports net/http directly"},
		{"nobody imports it", `{"package":"example.com/app/util"}`, nil, "No workspace package imports example.com/app/util (6 packages in module example.com/app scanned)."},
		{"only tests import it", `{"package":"example.com/app/lonely"}`, nil, "No workspace package imports example.com/app/lonely"},
		{"with tests", `{"package":"example.com/app/lonely","tests":true}`, []string{"example.com/app/store"}, "1 package imports example.com/app/lonely directly"},
		{"test imports join the graph", `{"package":"example.com/app/util","tests":true}`, []string{"example.com/app/cmd/server"}, ""},
		{"ignored directories", `{"package":"example.com/app/store","transitive":true}`, []string{"example.com/app/api", "example.com/app/cmd/tool"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, r := inspectRun(t, dir, tt.input)
			if out.Status != modtest.StatusCompleted {
				t.Fatalf("got %s %q", out.Status, out.Text)
			}
			if got := packages(r.Direct); !reflect.DeepEqual(got, tt.wantDirect) {
				t.Errorf("got direct %v, want %v", got, tt.wantDirect)
			}
			if !strings.HasPrefix(out.Text, tt.wantText) {
				t.Errorf("got text %q, want prefix %q", out.Text, tt.wantText)
			}
		})
	}
}

func TestInspectUnknown(t *testing.T) {
	dir := app(t)
	tests := []struct {
		query string
		want  []string
	}{
		{"example.com/app/stor", []string{"example.com/app/store"}},
		{"store", []string{"example.com/app/store"}},
		{"example.com/other/api", []string{"example.com/app/api"}},
		{"example.com/app/cmd/servr", []string{"example.com/app/cmd/server"}},
		{"zzzzqqqqxxxx", nil},
		{"example.com/app/zzzzqqqqxxxx", nil},
		{"example.com/app/apj", []string{"example.com/app/api"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			out, r := inspectRun(t, dir, fmt.Sprintf(`{"package":%q}`, tt.query))
			if out.Status != modtest.StatusCompleted || r.Found {
				t.Fatalf("got %s found=%v, want completed and not found", out.Status, r.Found)
			}
			if len(tt.want) == 0 {
				if r.Suggestions != nil || !strings.HasSuffix(out.Text, "No close matches.") {
					t.Errorf("got %v %q, want no suggestions", r.Suggestions, out.Text)
				}
				return
			}
			if !reflect.DeepEqual(r.Suggestions, tt.want) {
				t.Errorf("got suggestions %v, want %v", r.Suggestions, tt.want)
			}
			wantText := fmt.Sprintf("No package %q in the workspace (6 packages in module example.com/app), and none of its packages imports it. Close matches:\n%s", tt.query, tt.want[0])
			if !strings.HasPrefix(out.Text, wantText) {
				t.Errorf("got text:\n%s\nwant prefix:\n%s", out.Text, wantText)
			}
		})
	}
}

func TestInspectGoWork(t *testing.T) {
	dir := workspace(t, map[string]string{
		"go.work":             "go 1.26\n\nuse (\n\t./lib // the library\n\t\"./app\"\n)\nuse ./tools\n",
		"lib/go.mod":          "module example.com/lib\n",
		"lib/lib.go":          goFile("lib"),
		"app/go.mod":          "module example.com/app\n",
		"app/main.go":         goFile("main", "example.com/lib"),
		"tools/go.mod":        "module example.com/tools\n",
		"tools/gen.go":        goFile("tools", "example.com/app/internal/x"),
		"app/internal/x/x.go": goFile("x", "example.com/lib"),
		"unused/go.mod":       "module example.com/unused\n",
		"unused/u.go":         goFile("u", "example.com/lib"),
	})
	out, r := inspectRun(t, dir, `{"package":"example.com/lib","transitive":true}`)
	if out.Status != modtest.StatusCompleted {
		t.Fatalf("got %s %q", out.Status, out.Text)
	}
	if got, want := packages(r.Direct), []string{"example.com/app", "example.com/app/internal/x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got direct %v, want %v", got, want)
	}
	if got, want := packages(r.Indirect), []string{"example.com/tools"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got indirect %v, want %v", got, want)
	}
	if got, want := r.Modules, []string{"example.com/lib", "example.com/app", "example.com/tools"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got modules %v, want %v", got, want)
	}
	if r.Direct[1].Dir != "app/internal/x" {
		t.Errorf("got dir %q, want app/internal/x", r.Direct[1].Dir)
	}
}

func TestInspectFailures(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		input string
		want  string
	}{
		{"no module", map[string]string{"a.go": goFile("a")}, `{"package":"a"}`,
			"Tool failed: the workspace root has neither go.work nor go.mod: open a Go module as the workspace"},
		{"no module directive", map[string]string{"go.mod": "go 1.26\n"}, `{"package":"a"}`,
			"Tool failed: go.mod: no module directive"},
		{"go.work escaping", map[string]string{"go.work": "use ../elsewhere\n"}, `{"package":"a"}`,
			"Tool failed: go.work: use ../elsewhere leaves the workspace root"},
		{"go.work using a missing module", map[string]string{"go.work": "use ./gone\n"}, `{"package":"a"}`,
			"Tool failed: go.work: gone/go.mod does not exist"},
		{"unclosed use block", map[string]string{"go.work": "use (\n./a\n"}, `{"package":"a"}`,
			"Tool failed: go.work: use block is not closed"},
		{"spaces", map[string]string{"go.mod": "module m\n"}, `{"package":"a b"}`,
			"Tool failed: invalid input for tool dependencies_inspect:\n  " + `/package: "a b" is not an import path`},
		{"dot dot", map[string]string{"go.mod": "module m\n"}, `{"package":"m/../x"}`,
			"Tool failed: invalid input for tool dependencies_inspect:\n  " + `/package: "m/../x" is not an import path: it has ".." in it`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _ := inspectRun(t, workspace(t, tt.files), tt.input)
			if out.Status != modtest.StatusFailed || !strings.HasPrefix(out.Text, tt.want) {
				t.Errorf("got %s %q, want failed with prefix %q", out.Status, out.Text, tt.want)
			}
		})
	}
	out, _ := inspectRun(t, "", `{"package":"a"}`)
	if want := "Tool failed: the session has no workspace root"; out.Text != want {
		t.Errorf("no workspace: got %q, want %q", out.Text, want)
	}
}

func TestInspectCancel(t *testing.T) {
	files := map[string]string{"go.mod": "module example.com/big\n"}
	for i := 0; i < 300; i++ {
		files[fmt.Sprintf("p%03d/p.go", i)] = goFile("p", "example.com/big/base")
	}
	dir := workspace(t, files)
	// In the test's process, the cancellation reaches the handler as the
	// update is sent: the test sees where the scan stops.
	out := modtest.Run(t, generated(), "dependencies_inspect", `{"package":"example.com/big/base"}`, &modtest.Options{
		Workspace:  dir,
		Unconfined: true,
		CancelWhen: func(u sdk.ActivityUpdate) bool {
			return strings.HasPrefix(u.Text, "Reading 26 of")
		},
	})
	if out.Status != modtest.StatusCancelled {
		t.Fatalf("got %s %q, want cancelled", out.Status, out.Text)
	}
	if out.SinceCancel > 200*time.Millisecond {
		t.Errorf("got %v from cancel to return, want prompt", out.SinceCancel)
	}
	for _, u := range out.Updates {
		if strings.HasPrefix(u.Text, "Reading 51 of") {
			t.Errorf("got update %q, want the scan stopped at cancellation", u.Text)
		}
	}
}

func TestDepsSlashCommand(t *testing.T) {
	dir := app(t)
	opts := &modtest.Options{Workspace: dir}
	msg, err := modtest.RunSlashCommand(t, generated(), "/deps example.com/app/api", opts)
	if err != nil {
		t.Fatal(err)
	}
	want := "2 packages import example.com/app/api directly (6 packages in module example.com/app scanned):\nexample.com/app/cmd/server\nexample.com/app/cmd/tool"
	if msg != want {
		t.Errorf("got:\n%s\nwant:\n%s", msg, want)
	}
	if _, err := modtest.RunSlashCommand(t, generated(), "/deps", opts); err == nil || err.Error() != "usage: /deps <import path>" {
		t.Errorf("got %v, want the usage", err)
	}
	if _, err := modtest.RunSlashCommand(t, generated(), "/deps a b", opts); err == nil || !strings.HasPrefix(err.Error(), `"a b" is not an import path`) {
		t.Errorf("got %v, want an import path error", err)
	}
}

func TestInspectView(t *testing.T) {
	dir := app(t)
	done := modtest.Run(t, generated(), "dependencies_inspect", `{"package":"example.com/app/store","transitive":true}`, &modtest.Options{Workspace: dir})
	unknown := modtest.Run(t, generated(), "dependencies_inspect", `{"package":"<stor>"}`, &modtest.Options{Workspace: dir})
	tests := []struct {
		name  string
		state sdk.RawViewState
		want  []string
	}{
		{"preparing", sdk.RawViewState{Phase: sdk.PhasePreparing, Input: []byte(`{"pack`)}, []string{"Preparing to read the import graph…"}},
		{"running", sdk.RawViewState{Phase: sdk.PhaseRunning, Input: []byte(`{"package":"a<b"}`)}, []string{"Finding what imports <code>a&lt;b</code>…"}},
		{"completed", done.ViewState(), []string{"Imported directly by 2 packages:", "<code>example.com/app/api</code> <small>api</small>",
			"And indirectly by 1 package:", "<code>example.com/app/cmd/server</code> → <code>example.com/app/api</code> → <code>example.com/app/store</code>"}},
		{"not found", unknown.ViewState(), []string{"No package <code>&lt;stor&gt;</code>", "Did you mean:"}},
		{"failed", sdk.RawViewState{Phase: sdk.PhaseFailed, Input: []byte(`{"package":"x"}`), Error: "no <go.mod>"}, []string{"Could not read the import graph for <code>x</code>: no &lt;go.mod&gt;"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := modtest.Render(t, generated(), "dependencies_inspect", tt.state)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("got HTML:\n%s\nwant it to contain %q", got, w)
				}
			}
		})
	}
}

func TestParsers(t *testing.T) {
	mods := []struct {
		src, want string
	}{
		{"module example.com/a\n", "example.com/a"},
		{"// c\nmodule \"example.com/q\"\n", "example.com/q"},
		{"modules x\nmodule\tm // c\n", "m"},
	}
	for _, m := range mods {
		got, err := parseModulePath(m.src)
		if err != nil || got != m.want {
			t.Errorf("parseModulePath(%q) = %q, %v, want %q", m.src, got, err, m.want)
		}
	}
	uses, err := parseWorkUses("go 1.26\nuse ./a\nuse (\n  ./b // x\n\n  \"./c d\"\n)\nuser ./no\n")
	if want := []string{"./a", "./b", "./c d"}; err != nil || !reflect.DeepEqual(uses, want) {
		t.Errorf("parseWorkUses: got %v, %v, want %v", uses, err, want)
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"store", "stor", 1}, {"héllo", "hello", 1},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

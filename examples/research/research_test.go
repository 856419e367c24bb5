package research

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

// generated is the mod as the runtime sees it, with modgen's validators.
func generated() *sdk.Generated { return Modkit() }

// workspace creates files (slash paths to contents) in a new directory.
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

func search(t *testing.T, dir, input string) *modtest.Outcome {
	t.Helper()
	return modtest.Run(t, generated(), "research_search_workspace", input, &modtest.Options{Workspace: dir})
}

func mustComplete(t *testing.T, out *modtest.Outcome) {
	t.Helper()
	if out.Status != modtest.StatusCompleted {
		t.Fatalf("got %s: %s, want completed", out.Status, out.Text)
	}
}

func TestWordCount(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "The passage is empty: it has no words."},
		{"white space only", " \n\t\u3000", "The passage has no words: it is only white space (4 characters)."},
		{"one word", "hello", "The passage has 1 word, 1 line and 5 characters."},
		{"unicode spaces", "a\u00a0b\u2003c\u3000d", "The passage has 4 words, 1 line and 7 characters."},
		{"lines", "one two\nthree\n", "The passage has 3 words, 2 lines and 14 characters."},
		{"non-latin", "Привет мир 你好", "The passage has 3 words, 1 line and 13 characters."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := modtest.Run(t, generated(), "research_word_count", map[string]string{"text": tt.text}, nil)
			mustComplete(t, out)
			if out.Text != tt.want {
				t.Errorf("got %q, want %q", out.Text, tt.want)
			}
		})
	}
	many := strings.Repeat("w ", 1234)
	out := modtest.Run(t, generated(), "research_word_count", map[string]string{"text": many}, nil)
	if want := "The passage has 1,234 words"; !strings.HasPrefix(out.Text, want) {
		t.Errorf("got %q, want prefix %q", out.Text, want)
	}
}

func TestSearchFinds(t *testing.T) {
	dir := workspace(t, map[string]string{
		"a.go":         "package a\n\nfunc Alpha() {}\n",
		"sub/b.txt":    "nothing here\n    calls Alpha twice: Alpha\n",
		"sub/c.md":     "# Title\n",
		".git/HEAD":    "Alpha in git metadata\n",
		".git/x/y.txt": "Alpha\n",
	})
	out := search(t, dir, `{"query":"Alpha"}`)
	mustComplete(t, out)
	want := "2 matches for \"Alpha\" in 3 files:\na.go:3 func Alpha() {}\nsub/b.txt:2 calls Alpha twice: Alpha"
	if out.Text != want {
		t.Errorf("got text:\n%s\nwant:\n%s", out.Text, want)
	}
	if got, want := string(out.Result), `{"query":"Alpha","hits":[{"path":"a.go","line":3,"excerpt":"func Alpha() {}"},{"path":"sub/b.txt","line":2,"excerpt":"calls Alpha twice: Alpha"}],"filesSearched":3,"truncated":false}`; got != want {
		t.Errorf("got result %s, want %s", got, want)
	}
	if out.Activity.Title != `Searching for "Alpha"` || out.Activity.Status != "Searched 3 files." {
		t.Errorf("got title %q status %q, want the query and the final count", out.Activity.Title, out.Activity.Status)
	}
}

func TestSearchRegexAndPath(t *testing.T) {
	dir := workspace(t, map[string]string{
		"a/one.txt": "id=42\nid=x\n",
		"b/two.txt": "id=7\n",
	})
	out := search(t, dir, `{"query":"id=[0-9]+","regex":true,"path":"a"}`)
	mustComplete(t, out)
	if want := "1 match for \"id=[0-9]+\" in 1 file:\na/one.txt:1 id=42"; out.Text != want {
		t.Errorf("got %q, want %q", out.Text, want)
	}
	literal := search(t, dir, `{"query":"id=[0-9]+"}`)
	if want := `No matches for "id=[0-9]+" in 2 files.`; literal.Text != want {
		t.Errorf("literal query: got %q, want %q", literal.Text, want)
	}
	file := search(t, dir, `{"query":"id","path":"b/two.txt"}`)
	if want := "1 match for \"id\" in 1 file:\nb/two.txt:1 id=7"; file.Text != want {
		t.Errorf("path to a file: got %q, want %q", file.Text, want)
	}
}

func TestSearchEmpty(t *testing.T) {
	out := search(t, t.TempDir(), `{"query":"anything"}`)
	mustComplete(t, out)
	if want := `No matches for "anything" in 0 files.`; out.Text != want {
		t.Errorf("got %q, want %q", out.Text, want)
	}
	if got := string(out.Result); !strings.Contains(got, `"hits":[]`) {
		t.Errorf("got result %s, want an empty hits array", got)
	}

	gone := search(t, filepath.Join(t.TempDir(), "gone"), `{"query":"x"}`)
	if want := "Tool failed: workspace root: no such file or directory"; gone.Text != want {
		t.Errorf("missing workspace: got %q, want %q", gone.Text, want)
	}

	noWS := search(t, "", `{"query":"x"}`)
	if want := "Tool failed: the session has no workspace root"; noWS.Status != modtest.StatusFailed || noWS.Text != want {
		t.Errorf("no workspace: got %s %q, want failed %q", noWS.Status, noWS.Text, want)
	}
}

func TestSearchLimits(t *testing.T) {
	lines := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString("hit\n")
		}
		return b.String()
	}
	tests := []struct {
		name          string
		hits          int
		limit         string
		wantHits      int
		wantTruncated bool
	}{
		{"default is 50", 50, "", 50, false},
		{"default truncates at 50", 51, "", 50, true},
		{"limit 1 exact", 1, `,"limit":1`, 1, false},
		{"limit 1 over", 2, `,"limit":1`, 1, true},
		{"limit 200 exact", 200, `,"limit":200`, 200, false},
		{"limit 200 over", 201, `,"limit":200`, 200, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, map[string]string{"f.txt": lines(tt.hits)})
			out := search(t, dir, `{"query":"hit"`+tt.limit+`}`)
			mustComplete(t, out)
			var r SearchResult
			decode(t, out, &r)
			if len(r.Hits) != tt.wantHits || r.Truncated != tt.wantTruncated {
				t.Errorf("got %d hits truncated=%v, want %d truncated=%v", len(r.Hits), r.Truncated, tt.wantHits, tt.wantTruncated)
			}
			if tt.wantTruncated && !strings.Contains(out.Text, "more exist") {
				t.Errorf("got text %q, want it to say more matches exist", firstLine(out.Text))
			}
		})
	}
	for _, bad := range []string{`{"query":"x","limit":201}`, `{"query":"x","limit":-1}`} {
		out := search(t, t.TempDir(), bad)
		if out.Status != modtest.StatusFailed || !strings.Contains(out.Text, "/limit") {
			t.Errorf("%s: got %s %q, want failed naming /limit", bad, out.Status, out.Text)
		}
	}
}

func TestSearchSkips(t *testing.T) {
	dir := workspace(t, map[string]string{
		"text.txt":   "needle\n",
		"binary.bin": "needle\x00\x01\x02",
		"exact.txt":  "needle\n" + strings.Repeat("x", MaxFileSize-len("needle\n")),
		"big.log":    "needle\n" + strings.Repeat("x", MaxFileSize-len("needle\n")+1),
		".git/HEAD":  "needle\n",
	})
	out := search(t, dir, `{"query":"needle"}`)
	mustComplete(t, out)
	var r SearchResult
	decode(t, out, &r)
	var paths []string
	for _, h := range r.Hits {
		paths = append(paths, h.Path)
	}
	if got, want := strings.Join(paths, ","), "exact.txt,text.txt"; got != want {
		t.Errorf("got hits in %s, want %s (exactly at the size cap is searched)", got, want)
	}
	if r.FilesSearched != 2 {
		t.Errorf("got %d files searched, want 2", r.FilesSearched)
	}
	logs := logText(out)
	for _, want := range []string{"Skipped big.log: it is 1 MB, over the 1 MB limit.", "Skipped binary.bin: it is binary."} {
		if !strings.Contains(logs, want) {
			t.Errorf("got log:\n%s\nwant a line %q", logs, want)
		}
	}
	if strings.Contains(logs, ".git") {
		t.Errorf("got log:\n%s\nwant .git skipped silently", logs)
	}
}

func TestSearchManySkipsAreSummarised(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < maxSkipLogs+5; i++ {
		files[fmt.Sprintf("bin%02d", i)] = "\x00"
	}
	out := search(t, workspace(t, files), `{"query":"x"}`)
	mustComplete(t, out)
	if got, want := len(out.Activity.Log), maxSkipLogs+1; got != want {
		t.Fatalf("got %d log entries, want %d", got, want)
	}
	if got, want := out.Activity.Log[maxSkipLogs].Message, "Skipped 5 more files."; got != want {
		t.Errorf("got last log %q, want %q", got, want)
	}
}

func TestSearchEscapes(t *testing.T) {
	outside := workspace(t, map[string]string{"secret.txt": "needle outside\n"})
	dir := workspace(t, map[string]string{"in.txt": "needle inside\n", "sub/x.txt": "needle sub\n"})
	mustLink(t, filepath.Join(outside, "secret.txt"), filepath.Join(dir, "leak.txt"))
	mustLink(t, outside, filepath.Join(dir, "outdir"))
	mustLink(t, filepath.Join(dir, "in.txt"), filepath.Join(dir, "alias.txt"))

	tests := []struct {
		name, input string
		want        string
	}{
		{"dot dot", `{"query":"needle","path":"../x"}`, "Tool failed: invalid input for tool research_search_workspace:\n  " + `/path: "../x" leaves the workspace root`},
		{"dot dot inside", `{"query":"needle","path":"sub/../../x"}`, `leaves the workspace root`},
		{"absolute", `{"query":"needle","path":"/etc"}`, `/path: "/etc" must be relative to the workspace root`},
		{"symlinked dir", `{"query":"needle","path":"outdir"}`, `Tool failed: path "outdir" leads outside the workspace root through a symbolic link`},
		{"missing", `{"query":"needle","path":"nope"}`, `Tool failed: path "nope" does not exist in the workspace`},
		{"into .git", `{"query":"needle","path":"sub/.git/objects"}`, `/path: "sub/.git/objects" is inside .git, which is never searched`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := search(t, dir, tt.input)
			if out.Status != modtest.StatusFailed || !strings.Contains(out.Text, tt.want) {
				t.Errorf("got %s %q, want failed containing %q", out.Status, out.Text, tt.want)
			}
		})
	}

	out := search(t, dir, `{"query":"needle"}`)
	mustComplete(t, out)
	if strings.Contains(out.Text, "outside") {
		t.Errorf("got text:\n%s\nwant nothing from outside the workspace", out.Text)
	}
	if !strings.Contains(out.Text, "alias.txt:1 needle inside") {
		t.Errorf("got text:\n%s\nwant the link to a file inside searched", out.Text)
	}
	if logs := logText(out); !strings.Contains(logs, "Skipped leak.txt: it is a symbolic link leading outside the workspace.") {
		t.Errorf("got log:\n%s\nwant the escaping link logged", logs)
	}

	// A workspace root that is itself a link is fine: its target is the root.
	linkedRoot := filepath.Join(t.TempDir(), "ws")
	mustLink(t, dir, linkedRoot)
	if out := search(t, linkedRoot, `{"query":"needle sub"}`); !strings.Contains(out.Text, "sub/x.txt:1") {
		t.Errorf("linked workspace root: got %q, want the hit in sub/x.txt", out.Text)
	}
}

func TestSearchStatus(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 1200; i++ {
		files[fmt.Sprintf("d%02d/f%04d.txt", i%12, i)] = "text\n"
	}
	out := search(t, workspace(t, files), `{"query":"zzz"}`)
	mustComplete(t, out)
	statuses := map[string]bool{}
	for _, u := range out.Updates {
		if u.Kind == sdk.ActivityStatus {
			statuses[u.Text] = true
		}
	}
	for _, want := range []string{"Listing files…", "Searching 1 of 1,200 files…", "Searching 1,151 of 1,200 files…", "Searched 1,200 files."} {
		if !statuses[want] {
			t.Errorf("got statuses %v, want %q among them", statuses, want)
		}
	}
	if want := `No matches for "zzz" in 1,200 files.`; out.Text != want {
		t.Errorf("got %q, want %q", out.Text, want)
	}
}

func TestSearchCancel(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 400; i++ {
		files[fmt.Sprintf("f%04d.txt", i)] = strings.Repeat("some text without the query\n", 50)
	}
	dir := workspace(t, files)
	tests := []struct {
		name string
		when func(u sdk.ActivityUpdate) bool
	}{
		{"while listing", func(u sdk.ActivityUpdate) bool { return u.Text == "Listing files…" }},
		{"while searching", func(u sdk.ActivityUpdate) bool { return strings.HasPrefix(u.Text, "Searching 51 of") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// In the test's process, the cancellation reaches the handler
			// as the update is sent: the test sees where the walk stops.
			out := modtest.Run(t, generated(), "research_search_workspace", `{"query":"needle"}`,
				&modtest.Options{Workspace: dir, CancelWhen: tt.when, Unconfined: true})
			if out.Status != modtest.StatusCancelled {
				t.Fatalf("got %s %q, want cancelled", out.Status, out.Text)
			}
			if out.SinceCancel > 200*time.Millisecond {
				t.Errorf("got %v from cancel to return, want prompt", out.SinceCancel)
			}
			for _, u := range out.Updates {
				if strings.HasPrefix(u.Text, "Searching 101 of") || strings.HasPrefix(u.Text, "Searched") {
					t.Errorf("got update %q, want the walk to stop at cancellation", u.Text)
				}
			}
		})
	}
}

func TestSearchBadRegex(t *testing.T) {
	out := search(t, t.TempDir(), `{"query":"(unclosed","regex":true}`)
	if want := "Tool failed: invalid input for tool research_search_workspace:\n  /query: not a valid Go regular expression"; out.Status != modtest.StatusFailed || !strings.HasPrefix(out.Text, want) {
		t.Errorf("got %s %q, want failed with prefix %q", out.Status, out.Text, want)
	}
}

func TestSearchView(t *testing.T) {
	dir := workspace(t, map[string]string{"<a>.txt": "x <b>needle</b> & more\n"})
	out := search(t, dir, `{"query":"<b>needle"}`)
	mustComplete(t, out)
	g := generated()
	tests := []struct {
		phase sdk.Phase
		state sdk.RawViewState
		want  []string
	}{
		{sdk.PhasePreparing, sdk.RawViewState{Phase: sdk.PhasePreparing, Input: []byte(`{"query":"<i>`)}, []string{"Preparing a search…"}},
		{sdk.PhasePreparing, sdk.RawViewState{Phase: sdk.PhasePreparing, Input: []byte(`{"query":"<i>"}`)}, []string{"Preparing a search for the text <code>&lt;i&gt;</code>…"}},
		{sdk.PhaseRunning, sdk.RawViewState{Phase: sdk.PhaseRunning, Input: []byte(`{"query":"a.b","regex":true,"path":"src"}`)}, []string{"Searching <code>src</code> for the pattern <code>a.b</code>…"}},
		{sdk.PhaseCompleted, out.ViewState(), []string{"1 match for <code>&lt;b&gt;needle</code> in 1 file.", "<code>&lt;a&gt;.txt</code>", "x &lt;b&gt;needle&lt;/b&gt; &amp; more"}},
		{sdk.PhaseFailed, sdk.RawViewState{Phase: sdk.PhaseFailed, Input: []byte(`{"query":"q"}`), Error: "disk <gone>"}, []string{"failed: disk &lt;gone&gt;"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.phase), func(t *testing.T) {
			got := modtest.Render(t, g, "research_search_workspace", tt.state)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("got HTML:\n%s\nwant it to contain %q", got, w)
				}
			}
			if strings.Contains(got, "<b>") || strings.Contains(got, "<i>") || strings.Contains(got, "<gone>") {
				t.Errorf("got HTML:\n%s\nwant interpolated text escaped", got)
			}
		})
	}
	empty := search(t, t.TempDir(), `{"query":"q"}`)
	if got := modtest.Render(t, g, "research_search_workspace", empty.ViewState()); !strings.Contains(got, "No matches for <code>q</code> in 0 files.") {
		t.Errorf("got HTML %s, want the no-match sentence", got)
	}
}

func TestStatsCommand(t *testing.T) {
	dir := workspace(t, map[string]string{
		"a.txt":     "12345",
		"b/c.txt":   "123",
		".git/HEAD": "ref: x",
	})
	mustLink(t, filepath.Join(dir, "a.txt"), filepath.Join(dir, "link"))
	msg, err := modtest.RunCommand(t, generated(), "research.stats", "", &modtest.Options{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	if want := "The workspace has 2 files (8 bytes) in 2 directories, and 1 symbolic link, not counting .git, .hg and .svn."; msg != want {
		t.Errorf("got %q, want %q", msg, want)
	}
	if _, err := modtest.RunCommand(t, generated(), "research.stats", `{"x":1}`, &modtest.Options{Workspace: dir}); err == nil {
		t.Error("got nil error for arguments, want one")
	}
	if _, err := modtest.RunCommand(t, generated(), "research.stats", "", nil); err == nil {
		t.Error("got nil error without a workspace, want one")
	}
}

func TestHookRefusesWholeDisk(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory:", err)
	}
	tests := []struct {
		name, workspace, tool, want string
	}{
		{"filesystem root", "/", "research_search_workspace", "refusing to search the filesystem root"},
		{"home", home, "research_search_workspace", "refusing to search the whole home directory"},
		{"home with slash", home + "/", "research_search_workspace", "refusing to search the whole home directory"},
		{"project", t.TempDir(), "research_search_workspace", ""},
		{"other tool at root", "/", "research_word_count", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The hook reads HOME, which the mod declares, so that a host
			// (and a confined test) passes it.
			err := modtest.RunHooks(t, generated(), sdk.Action{Name: sdk.ActionToolCall, Tool: tt.tool}, &modtest.Options{Workspace: tt.workspace})
			got := ""
			if err != nil {
				got = err.Error()
			}
			if !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestThousands(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {2031, "2,031"},
		{120000, "120,000"}, {1234567, "1,234,567"}, {-4500, "-4,500"},
	}
	for _, tt := range tests {
		if got := thousands(tt.n); got != tt.want {
			t.Errorf("thousands(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("a", 300) + "NEEDLE" + strings.Repeat("é", 300)
	got := excerpt(long, 300)
	if !strings.Contains(got, "NEEDLE") || !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") {
		t.Errorf("got %q, want the match kept with both ends elided", got)
	}
	if n := len([]rune(got)); n != maxExcerpt+2 {
		t.Errorf("got %d characters, want %d", n, maxExcerpt+2)
	}
	if got := excerpt("\t  short line  ", 3); got != "short line" {
		t.Errorf("got %q, want the line trimmed", got)
	}
	if got := excerpt("bad \xff byte", 0); got != "bad \uFFFD byte" {
		t.Errorf("got %q, want invalid UTF-8 replaced", got)
	}
}

func decode(t *testing.T, out *modtest.Outcome, v any) {
	t.Helper()
	if err := json.Unmarshal(out.Result, v); err != nil {
		t.Fatalf("decode result %s: %v", out.Result, err)
	}
}

func logText(out *modtest.Outcome) string {
	var b strings.Builder
	for _, e := range out.Activity.Log {
		b.WriteString(e.Message + "\n")
	}
	return b.String()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("symbolic links unavailable:", err)
	}
}

func TestSearchInputProblems(t *testing.T) {
	out := search(t, t.TempDir(), `{"query":"(","regex":true,"path":"../up","limit":300}`)
	want := "Tool failed: invalid input for tool research_search_workspace:\n  /limit: must be at most 200, got 300"
	if out.Status != modtest.StatusFailed || out.Text != want {
		t.Errorf("structural problem: got %s %q, want %q", out.Status, out.Text, want)
	}
	out = search(t, t.TempDir(), `{"query":"(","regex":true,"path":"../up"}`)
	want = "Tool failed: invalid input for tool research_search_workspace:\n  /query: not a valid Go regular expression: error parsing regexp: missing closing ): `(`\n  /path: \"../up\" leaves the workspace root: \"..\" is not allowed"
	if out.Status != modtest.StatusFailed || out.Text != want {
		t.Errorf("cross-field problems: got %s %q, want %q", out.Status, out.Text, want)
	}
}

// BenchmarkSearchWorkspace searches 2,000 files of 40 lines each.
func BenchmarkSearchWorkspace(b *testing.B) {
	dir := b.TempDir()
	for i := 0; i < 2000; i++ {
		p := filepath.Join(dir, fmt.Sprintf("d%02d", i%20), fmt.Sprintf("f%04d.txt", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		content := strings.Repeat("a line of ordinary text in a file\n", 39) + fmt.Sprintf("marker %d\n", i)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	g := generated()
	opts := &modtest.Options{Workspace: dir}
	for b.Loop() {
		out, err := modtest.Call(g, "research_search_workspace", `{"query":"marker 1999"}`, opts)
		if err != nil || out.Status != modtest.StatusCompleted || !strings.Contains(out.Text, "1 match") {
			b.Fatalf("got %v %s %q", err, out.Status, out.Text)
		}
	}
}

func TestSearchLines(t *testing.T) {
	dir := workspace(t, map[string]string{
		"crlf.txt":   "first\r\nsecond id=1\r\nid=2 third\r\n",
		"nolast.txt": "a\nid=3",
	})
	tests := []struct {
		input, want string
	}{
		{`{"query":"id="}`, "3 matches for \"id=\" in 2 files:\ncrlf.txt:2 second id=1\ncrlf.txt:3 id=2 third\nnolast.txt:2 id=3"},
		{`{"query":"^id=[0-9]$","regex":true}`, "1 match for \"^id=[0-9]$\" in 2 files:\nnolast.txt:2 id=3"},
		{`{"query":"third$","regex":true}`, "1 match for \"third$\" in 2 files:\ncrlf.txt:3 id=2 third"},
		{`{"query":"\\Aid","regex":true}`, "2 matches for \"\\\\Aid\" in 2 files:\ncrlf.txt:3 id=2 third\nnolast.txt:2 id=3"},
	}
	for _, tt := range tests {
		out := search(t, dir, tt.input)
		if out.Text != tt.want {
			t.Errorf("%s: got:\n%s\nwant:\n%s", tt.input, out.Text, tt.want)
		}
	}
}

func TestSearchBlockedByHook(t *testing.T) {
	out := modtest.Run(t, generated(), "research_search_workspace", `{"query":"x"}`, &modtest.Options{Workspace: "/", Hooks: true})
	want := "Tool failed: blocked by a hook of mod research: refusing to search the filesystem root: open a project directory as the workspace"
	if out.Status != modtest.StatusFailed || out.Text != want {
		t.Errorf("got %s %q, want failed %q", out.Status, out.Text, want)
	}
}

func TestSearchCase(t *testing.T) {
	dir := workspace(t, map[string]string{"a.txt": "Hello world\nhello again\nHELLO.*\n"})
	tests := []struct {
		input string
		lines []int
	}{
		{`{"query":"hello"}`, []int{2}},
		{`{"query":"hello","case":"sensitive"}`, []int{2}},
		{`{"query":"hello","case":"insensitive"}`, []int{1, 2, 3}},
		{`{"query":"hello","case":"smart"}`, []int{1, 2, 3}},
		{`{"query":"Hello","case":"smart"}`, []int{1}},
		{`{"query":"hello.*","case":"insensitive"}`, []int{3}},
		{`{"query":"^hel+o$","regex":true,"case":"insensitive"}`, nil},
		{`{"query":"^hel+o\\b","regex":true,"case":"insensitive"}`, []int{1, 2, 3}},
		{`{"query":"^hel+o\\b","regex":true,"case":"smart"}`, []int{1, 2, 3}},
	}
	for _, tt := range tests {
		out := search(t, dir, tt.input)
		mustComplete(t, out)
		var r SearchResult
		decode(t, out, &r)
		var lines []int
		for _, h := range r.Hits {
			lines = append(lines, h.Line)
		}
		if fmt.Sprint(lines) != fmt.Sprint(tt.lines) {
			t.Errorf("%s: got lines %v, want %v", tt.input, lines, tt.lines)
		}
	}
	out := search(t, dir, `{"query":"x","case":"loud"}`)
	if out.Status != modtest.StatusFailed || !strings.Contains(out.Text, "/case") {
		t.Errorf("unknown case mode: got %s %q, want failed naming /case", out.Status, out.Text)
	}
}

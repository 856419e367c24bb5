package research

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modkit/modkit/sdk"
)

// Limits of research_search_workspace.
const (
	// DefaultLimit is the number of hits returned when the input sets none.
	DefaultLimit = 50
	// MaxLimit is the most hits one call may ask for.
	MaxLimit = 200
	// MaxFileSize is the size above which a file is skipped, in bytes.
	MaxFileSize = 1 << 20
	// maxExcerpt is the most characters of a line shown in a hit.
	maxExcerpt = 160
	// statusEvery is how many files pass between two status updates.
	statusEvery = 50
	// maxSkipLogs is how many skipped files are logged one by one.
	maxSkipLogs = 20
)

// SearchInput says what research_search_workspace looks for, and where.
type SearchInput struct {
	// Query is the text to find: matched literally, case-sensitive, unless
	// regex is true.
	Query string `json:"query" jsonschema:"minLength=1,maxLength=1000"`
	// Regex makes query a Go regular expression (RE2 syntax; use (?i) to
	// ignore case).
	Regex bool `json:"regex,omitempty"`
	// Path limits the search to one directory or file, relative to the
	// workspace root; the whole workspace when empty.
	Path string `json:"path,omitempty" jsonschema:"maxLength=4096"`
	// Limit is the most hits to return; later hits are dropped and the
	// result says it was truncated.
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1,maximum=200,default=50"`
	// Case says whether letter case matters: sensitive (the default),
	// insensitive, or smart (insensitive unless the query has an upper-case
	// letter).
	Case CaseMode `json:"case,omitempty"`
}

// CaseMode says whether letter case matters when matching.
type CaseMode string

// The ways to treat letter case.
const (
	// CaseSensitive matches letters exactly.
	CaseSensitive CaseMode = "sensitive"
	// CaseInsensitive ignores letter case.
	CaseInsensitive CaseMode = "insensitive"
	// CaseSmart ignores letter case unless the query has an upper-case
	// letter.
	CaseSmart CaseMode = "smart"
)

// ignoreCase reports whether matching ignores letter case for query.
func (c CaseMode) ignoreCase(query string) bool {
	switch c {
	case CaseInsensitive:
		return true
	case CaseSmart:
		return strings.ToLower(query) == query
	default:
		return false
	}
}

// Validate checks what the schema cannot: that a regex compiles and that
// path stays inside the workspace.
func (in SearchInput) Validate() error {
	var problems []string
	if in.Regex {
		if _, err := regexp.Compile(in.Query); err != nil {
			problems = append(problems, fmt.Sprintf("/query: not a valid Go regular expression: %v", err))
		}
	}
	switch in.Case {
	case "", CaseSensitive, CaseInsensitive, CaseSmart:
	default:
		problems = append(problems, fmt.Sprintf("/case: must be %q, %q or %q, got %q", CaseSensitive, CaseInsensitive, CaseSmart, in.Case))
	}
	if in.Limit < 0 || in.Limit > MaxLimit {
		problems = append(problems, fmt.Sprintf("/limit: must be between 1 and %d, got %d", MaxLimit, in.Limit))
	}
	if msg := checkRelative(in.Path); msg != "" {
		problems = append(problems, "/path: "+msg)
	}
	if len(problems) > 0 {
		return &sdk.InputError{Problems: problems}
	}
	return nil
}

// checkRelative returns what is wrong with a path meant to stay inside the
// workspace, or "".
func checkRelative(p string) string {
	if p == "" {
		return ""
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) {
		return fmt.Sprintf("%q must be relative to the workspace root", p)
	}
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return fmt.Sprintf("%q leaves the workspace root: \"..\" is not allowed", p)
		}
		if skipDirs[part] {
			return fmt.Sprintf("%q is inside %s, which is never searched", p, part)
		}
	}
	return ""
}

// SearchResult is what research_search_workspace found.
type SearchResult struct {
	// Query is the query searched for.
	Query string `json:"query"`
	// Hits are the matching lines, in file order, at most limit of them.
	Hits []Hit `json:"hits"`
	// FilesSearched is how many text files were read.
	FilesSearched int `json:"filesSearched"`
	// Truncated is true when more lines matched than limit allowed.
	Truncated bool `json:"truncated"`
}

// Hit is one matching line.
type Hit struct {
	// Path is the file, slash-separated, relative to the workspace root.
	Path string `json:"path"`
	// Line is the line number, from 1.
	Line int `json:"line"`
	// Excerpt is the line, trimmed, shortened around the match when long.
	Excerpt string `json:"excerpt"`
}

// searchWorkspace walks the workspace, then reads each candidate file.
func searchWorkspace(tc *sdk.ToolContext, in SearchInput) (SearchResult, error) {
	res := SearchResult{Query: in.Query, Hits: []Hit{}}
	limit := in.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	m, err := matcher(in)
	if err != nil {
		return res, err
	}
	root, err := tc.Workspace()
	if err != nil {
		return res, err
	}
	start, err := resolveStart(root, in.Path)
	if err != nil {
		return res, err
	}
	tc.Title(fmt.Sprintf("Searching for %q", in.Query))
	tc.Status("Listing files…")

	skips := &skipLog{tc: tc}
	files, err := listFiles(tc, root, workspacePaths(tc.Session().Workspace), start, skips)
	if err != nil {
		return res, err
	}

	total := thousands(len(files))
	lastStatus := time.Time{}
	dirs := &dirRoots{root: root}
	defer dirs.close()
	for i, f := range files {
		if err := tc.Err(); err != nil {
			return res, err
		}
		if i%statusEvery == 0 || time.Since(lastStatus) > 250*time.Millisecond {
			tc.Status(fmt.Sprintf("Searching %s of %s files…", thousands(i+1), total))
			lastStatus = time.Now()
		}
		searched, err := searchFile(tc, dirs, f, m, &res, limit, skips)
		if err != nil {
			return res, err
		}
		if searched {
			res.FilesSearched++
		}
		if res.Truncated {
			break
		}
	}
	skips.summary()
	tc.Status(fmt.Sprintf("Searched %s.", plural(res.FilesSearched, "file", "files")))
	return res, nil
}

// match finds the query: file reports whether a file's contents match
// anywhere, which skips most files at once; line returns the byte offset of
// the first match in a line, or -1.
type match struct {
	file func(data []byte) bool
	line func(line string) int
}

// matcher returns the match for in's query.
func matcher(in SearchInput) (match, error) {
	fold := in.Case.ignoreCase(in.Query)
	if !in.Regex && !fold {
		q := in.Query
		return match{
			file: func(data []byte) bool { return bytes.Contains(data, []byte(q)) },
			line: func(line string) int { return strings.Index(line, q) },
		}, nil
	}
	pattern := in.Query
	if !in.Regex {
		pattern = regexp.QuoteMeta(pattern)
	}
	if fold {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return match{}, fmt.Errorf("query is not a valid Go regular expression: %w", err)
	}
	// Anchors such as \A and ^ mean something else in a whole file than in
	// a line, so a pattern gets no whole-file shortcut. A quoted literal
	// has no anchors: a file it does not match has no matching line.
	file := func([]byte) bool { return true }
	if !in.Regex {
		file = re.Match
	}
	return match{
		file: file,
		line: func(line string) int {
			loc := re.FindStringIndex(line)
			if loc == nil {
				return -1
			}
			return loc[0]
		},
	}, nil
}

// resolveStart returns the directory or file to search as a slash path
// in the workspace, "." for all of it.
func resolveStart(root *os.Root, rel string) (string, error) {
	if msg := checkRelative(rel); msg != "" {
		return "", fmt.Errorf("path %s", msg)
	}
	if rel == "" {
		return ".", nil
	}
	start := path.Clean(filepath.ToSlash(rel))
	if _, err := root.Stat(start); err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "", fmt.Errorf("path %q does not exist in the workspace", rel)
		case escapes(err):
			return "", fmt.Errorf("path %q leads outside the workspace root through a symbolic link; search inside the workspace instead", rel)
		}
		return "", fmt.Errorf("path %q: %s", rel, unwrapPathError(err))
	}
	return start, nil
}

// workspacePaths returns the absolute paths of the workspace root, as
// given and with symbolic links resolved, for linkTarget.
func workspacePaths(ws string) []string {
	paths := []string{filepath.Clean(ws)}
	if real, err := filepath.EvalSymlinks(ws); err == nil && real != paths[0] {
		paths = append(paths, real)
	}
	return paths
}

// linkTarget returns the name through root under which to read the
// symbolic link p, or why it is skipped, or neither for a link to a
// directory, which is skipped silently. The name is p itself, which the
// root follows while it stays inside; but an *os.Root never follows a link
// with an absolute target, so for one whose target lies under one of
// rootPaths it is that target relative to the root. Either way the root
// does the opening, so a link swapped in later still cannot lead outside.
func linkTarget(root *os.Root, rootPaths []string, p string) (open, why string) {
	open = p
	if target, err := root.Readlink(p); err == nil && filepath.IsAbs(target) {
		open = ""
		for _, rp := range rootPaths {
			if rel, err := filepath.Rel(rp, target); err == nil && filepath.IsLocal(rel) {
				open = filepath.ToSlash(rel)
				break
			}
		}
		if open == "" {
			return "", "is a symbolic link leading outside the workspace"
		}
	}
	info, err := root.Stat(open)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", "is a broken symbolic link"
	case err != nil && escapes(err):
		return "", "is a symbolic link leading outside the workspace"
	case err != nil:
		return "", unreadable(err)
	case info.IsDir():
		return "", ""
	}
	return open, ""
}

// unreadable says why a file or directory that could not be opened is
// skipped.
func unreadable(err error) string {
	if escapes(err) {
		return "leads outside the workspace through a symbolic link"
	}
	return "cannot be read: " + unwrapPathError(err)
}

// escapes reports whether err is an *os.Root refusing a name that leads
// outside it, rather than a missing or unreadable file.
func escapes(err error) bool {
	return !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) &&
		strings.Contains(unwrapPathError(err), "escapes")
}

// skipDirs are directories never searched.
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true}

// candidate is a file the search will read: name is where the hit is
// reported, open the name through the root it is read by (the target of a
// link with an absolute target).
type candidate struct {
	name, open string
}

// listFiles returns the files under start, in lexical order, that are not
// under a skipped directory. Directories are read through root, so none
// outside it is listed, even one swapped in for a listed directory;
// symbolic links to files inside the root are kept and those leading
// outside are skipped. What each file is, is decided when it is opened
// (readRegular), not here.
func listFiles(tc *sdk.ToolContext, root *os.Root, rootPaths []string, start string, skips *skipLog) ([]candidate, error) {
	var files []candidate
	err := fs.WalkDir(root.FS(), start, func(p string, d fs.DirEntry, err error) error {
		if cerr := tc.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			if p == start {
				return err
			}
			skips.add(p, unreadable(err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if skipDirs[d.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		open := p
		if d.Type()&fs.ModeSymlink != 0 {
			var why string
			if open, why = linkTarget(root, rootPaths, p); open == "" {
				if why != "" {
					skips.add(p, why)
				}
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil // devices, pipes, sockets
		}
		files = append(files, candidate{name: p, open: open})
		return nil
	})
	if err != nil {
		if tc.Err() != nil {
			return nil, tc.Err()
		}
		return nil, fmt.Errorf("list files: %s", unwrapPathError(err))
	}
	return files, nil
}

// searchFile adds the matching lines of f to res and reports whether it was
// read as text.
func searchFile(tc *sdk.ToolContext, dirs *dirRoots, f candidate, m match, res *SearchResult, limit int, skips *skipLog) (bool, error) {
	dir, base, err := dirs.open(f.open)
	if err != nil {
		skips.add(f.name, unreadable(err))
		return false, nil
	}
	data, why := readRegular(dir, base)
	if why != "" {
		skips.add(f.name, why)
		return false, nil
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		skips.add(f.name, "is binary")
		return false, nil
	}
	if !m.file(data) {
		return true, nil
	}
	for n := 1; len(data) > 0; n++ {
		if n%1000 == 0 && tc.Err() != nil {
			return true, tc.Err()
		}
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		text := strings.TrimSuffix(string(line), "\r")
		at := m.line(text)
		if at < 0 {
			continue
		}
		if len(res.Hits) == limit {
			res.Truncated = true
			return true, nil
		}
		res.Hits = append(res.Hits, Hit{Path: f.name, Line: n, Excerpt: excerpt(text, at)})
	}
	return true, nil
}

// excerpt returns line trimmed to at most maxExcerpt characters, keeping the
// match at byte offset at in view, and valid UTF-8.
func excerpt(line string, at int) string {
	line = strings.ToValidUTF8(line, "\uFFFD")
	if at > len(line) {
		at = len(line)
	}
	lead := len(line) - len(strings.TrimLeft(line, " \t"))
	line = strings.TrimSpace(line)
	at = max(0, at-lead)
	if at > len(line) {
		at = len(line)
	}
	if utf8.RuneCountInString(line) <= maxExcerpt {
		return line
	}
	runes := []rune(line)
	pos := utf8.RuneCountInString(line[:at])
	from := max(0, pos-maxExcerpt/4)
	to := min(len(runes), from+maxExcerpt)
	from = max(0, to-maxExcerpt)
	out := string(runes[from:to])
	if from > 0 {
		out = "…" + out
	}
	if to < len(runes) {
		out += "…"
	}
	return out
}

// unwrapPathError drops the absolute path from a *fs.PathError, so messages
// never show where the workspace lives on the machine.
func unwrapPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// size formats a byte count for people: 1 MB, 2.5 MB, 300 kB.
func size(n int64) string {
	switch {
	case n >= 1<<20:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<20))) + " MB"
	case n >= 1<<10:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<10))) + " kB"
	default:
		return plural(int(n), "byte", "bytes")
	}
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// skipLog logs skipped files, the first few one by one and the rest as a
// count.
type skipLog struct {
	tc    *sdk.ToolContext
	count int
}

func (s *skipLog) add(rel, why string) {
	s.count++
	if s.count <= maxSkipLogs {
		s.tc.Log(fmt.Sprintf("Skipped %s: it %s.", rel, why))
	}
}

func (s *skipLog) summary() {
	if more := s.count - maxSkipLogs; more > 0 {
		noun := "files"
		if more == 1 {
			noun = "file"
		}
		s.tc.Log(fmt.Sprintf("Skipped %s more %s.", thousands(more), noun))
	}
}

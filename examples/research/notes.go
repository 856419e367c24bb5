package research

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/modkit/modkit/sdk"
)

// The URIs of the notes: the index, and each note by its slash path,
// percent-encoded as one segment (notes/findings.md is
// research://notes/notes%2Ffindings.md).
const (
	notesIndexURI = "research://notes/index"
	noteTemplate  = "research://notes/{path}"
)

// maxIndexed is how many notes the index lists.
const maxIndexed = 200

// notesIndex is the resource listing the workspace's notes.
var notesIndex = sdk.Resource{
	URI:         notesIndexURI,
	Name:        "notes_index",
	Title:       "Notes in the workspace",
	Description: "The .md and .txt files of the workspace, research_save_note's notes among them, as a Markdown list of links to each note's resource.",
	MIMEType:    "text/markdown",
	Read:        readNotesIndex,
	// Where modhost asks for access tokens, reading notes takes a token
	// granting notes.read.
	Scopes: []string{"notes.read"},
}

// noteResource is the resource template of one note.
var noteResource = sdk.ResourceTemplate{
	URITemplate: noteTemplate,
	Name:        "note",
	Title:       "A note",
	Description: "The text of a .md or .txt file of the workspace; {path} is its slash path relative to the workspace root, percent-encoded: notes%2Ffindings.md.",
	MIMEType:    "text/markdown",
	// A note's own icon; the index and the prompt show the mod's.
	Icons:    []sdk.Icon{{File: "note.svg", Sizes: []string{"any"}}},
	Read:     readNote,
	Complete: completeNote,
	Scopes:   []string{"notes.read"},
}

// noteURI is the URI of the note at the slash path name.
func noteURI(name string) string {
	return strings.Replace(noteTemplate, "{path}", url.PathEscape(name), 1)
}

// isNote reports whether the slash path name may be a note.
func isNote(name string) bool {
	return path.Ext(name) == ".md" || path.Ext(name) == ".txt"
}

// readNote reads the note at vars["path"] through the workspace root.
func readNote(_ context.Context, env *sdk.Env, _ string, vars map[string]string) (sdk.ResourceContents, error) {
	name := vars["path"]
	if why := checkRelative(name); why != "" {
		return sdk.ResourceContents{}, fmt.Errorf("note path %s", why)
	}
	if !isNote(name) {
		return sdk.ResourceContents{}, fmt.Errorf("no note %s: notes end in .md or .txt: %w", name, sdk.ErrResourceNotFound)
	}
	root, err := env.Session.OpenWorkspace()
	if err != nil {
		return sdk.ResourceContents{}, err
	}
	defer root.Close()
	data, why := readRegular(root, name)
	if _, err := root.Lstat(name); errors.Is(err, fs.ErrNotExist) {
		return sdk.ResourceContents{}, fmt.Errorf("no note %s: %w", name, sdk.ErrResourceNotFound)
	}
	switch {
	case why != "":
		return sdk.ResourceContents{}, fmt.Errorf("note %s %s", name, why)
	case !utf8.Valid(data):
		return sdk.ResourceContents{}, fmt.Errorf("note %s is not text", name)
	}
	return sdk.ResourceContents{MIMEType: mimeOf(name), Text: string(data)}, nil
}

// readNotesIndex lists the workspace's notes, in lexical order, as links.
func readNotesIndex(_ context.Context, env *sdk.Env, _ string) (sdk.ResourceContents, error) {
	notes, more, err := workspaceFiles(env, "", maxIndexed, isNote)
	if err != nil {
		return sdk.ResourceContents{}, err
	}
	var b strings.Builder
	b.WriteString("# Notes\n\n")
	if len(notes) == 0 {
		b.WriteString("The workspace has no notes yet: research_save_note writes them.\n")
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "- [%s](%s)\n", n, noteURI(n))
	}
	if more {
		fmt.Fprintf(&b, "\nThe first %d are listed.\n", maxIndexed)
	}
	return sdk.ResourceContents{Text: b.String()}, nil
}

// completeNote suggests the notes whose path starts with what has been
// typed.
func completeNote(_ context.Context, env *sdk.Env, req sdk.CompletionRequest) (sdk.Completion, error) {
	notes, more, err := workspaceFiles(env, req.Value, maxCompletions, isNote)
	return sdk.Completion{Values: notes, HasMore: more}, err
}

// workspaceFiles returns the slash paths of the workspace's regular files
// starting with prefix that keep says to, at most limit, skipping the
// directories search skips; more says there were others.
func workspaceFiles(env *sdk.Env, prefix string, limit int, keep func(string) bool) (names []string, more bool, err error) {
	root, err := env.Session.OpenWorkspace()
	if err != nil {
		return nil, false, err
	}
	defer root.Close()
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // an unreadable directory holds no file to list
		case d.IsDir():
			if p != "." && skipDirs[d.Name()] {
				return fs.SkipDir
			}
			return nil
		case !d.Type().IsRegular() || !strings.HasPrefix(p, prefix) || !keep(p):
			return nil
		case len(names) == limit:
			more = true
			return fs.SkipAll
		}
		names = append(names, p)
		return nil
	})
	return names, more, err
}

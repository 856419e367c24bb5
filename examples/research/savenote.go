package research

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/modkit/modkit/sdk"
)

// MaxNoteSize is the largest note research_save_note writes, in bytes.
const MaxNoteSize = 64 << 10

// SaveNoteInput is a note for research_save_note to write into the
// workspace.
type SaveNoteInput struct {
	// Path is where the note goes: a slash path relative to the workspace
	// root, ending in .md or .txt, such as notes/findings.md. Missing
	// directories are made.
	Path string `json:"path" jsonschema:"minLength=4,maxLength=512"`
	// Text is the note, written as given; it replaces a file already at
	// path.
	Text string `json:"text" jsonschema:"maxLength=65536"`
}

// Validate keeps the note inside the workspace and to note files.
func (in SaveNoteInput) Validate() error {
	p := in.Path
	switch {
	case strings.Contains(p, `\`):
		return errors.New("/path: use forward slashes, like notes/findings.md")
	case path.IsAbs(p):
		return errors.New("/path: must be relative to the workspace root, like notes/findings.md")
	case path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("/path: must be a clean path inside the workspace, like %s", strings.TrimPrefix(path.Clean("/"+p), "/"))
	case path.Ext(p) != ".md" && path.Ext(p) != ".txt":
		return errors.New("/path: must end in .md or .txt: notes never replace other files")
	case len(in.Text) > MaxNoteSize:
		return fmt.Errorf("/text: is %s, over the %s limit", size(int64(len(in.Text))), size(MaxNoteSize))
	}
	return nil
}

// noteApproval is what the person reads before a note is written: the file,
// and whether the note replaces one.
func noteApproval(tc *sdk.ToolContext, in SaveNoteInput) (string, error) {
	old, err := existingNote(tc, in.Path)
	if err != nil {
		return "", err
	}
	if old < 0 {
		return fmt.Sprintf("Create %s in the workspace with a note of %s.", in.Path, size(int64(len(in.Text)))), nil
	}
	return fmt.Sprintf("Overwrite %s in the workspace (%s now) with a note of %s; its current text is lost.",
		in.Path, size(old), size(int64(len(in.Text)))), nil
}

// existingNote returns the size of the regular file at name, -1 when
// there is none, or why a note may not go there.
func existingNote(tc *sdk.ToolContext, name string) (int64, error) {
	root, err := tc.Workspace()
	if err != nil {
		return 0, err
	}
	info, err := root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return -1, nil
	case err != nil:
		return 0, fmt.Errorf("%s %s", name, unreadable(err))
	case !info.Mode().IsRegular():
		return 0, fmt.Errorf("%s is not a regular file: a note replaces only a file", name)
	}
	return info.Size(), nil
}

// saveNote writes the note: to a temporary file beside it, then renamed
// over the path, so that a failed write leaves the old file whole.
func saveNote(tc *sdk.ToolContext, in SaveNoteInput) (sdk.Result, error) {
	old, err := existingNote(tc, in.Path)
	if err != nil {
		return sdk.Result{}, err
	}
	root, err := tc.Workspace()
	if err != nil {
		return sdk.Result{}, err
	}
	if dir := path.Dir(in.Path); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return sdk.Result{}, fmt.Errorf("make %s: %s", dir, unwrapPathError(err))
		}
	}
	tmp := in.Path + ".saving-" + tc.CallID()
	if err := root.WriteFile(tmp, []byte(in.Text), 0o644); err != nil {
		root.Remove(tmp)
		return sdk.Result{}, fmt.Errorf("write %s: %s", in.Path, unwrapPathError(err))
	}
	if err := root.Rename(tmp, in.Path); err != nil {
		root.Remove(tmp)
		return sdk.Result{}, fmt.Errorf("write %s: %s", in.Path, unwrapPathError(err))
	}
	if old < 0 {
		return sdk.Text(fmt.Sprintf("Saved the note as %s (%s, a new file).", in.Path, size(int64(len(in.Text))))), nil
	}
	return sdk.Text(fmt.Sprintf("Saved the note as %s (%s), replacing the previous %s.", in.Path, size(int64(len(in.Text))), size(old))), nil
}

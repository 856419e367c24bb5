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
	// Text is the note, written as given. When a file is already at
	// path, the person chooses: overwrite it, append the note, or keep
	// both (the note goes beside it).
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

// noteApproval is what the person reads before a new note is written. A
// note that would land on an existing file needs no approval: saveNote
// asks the person what to do with the file, which is their consent.
func noteApproval(tc *sdk.ToolContext, in SaveNoteInput) (string, error) {
	old, err := existingNote(tc, in.Path)
	if err != nil || old >= 0 {
		return "", err
	}
	return fmt.Sprintf("Create %s in the workspace with a note of %s.", in.Path, size(int64(len(in.Text)))), nil
}

// The choices for a note whose path holds a file, as the form's values.
const (
	Overwrite = "overwrite"
	Append    = "append"
	KeepBoth  = "keep_both"
)

// existingForm asks the person what to do with the file at in.Path, of
// old bytes: beside is where "keep both" saves the note.
func existingForm(in SaveNoteInput, old int64, beside string) sdk.Form {
	return sdk.Form{
		Key:     "existing",
		Message: fmt.Sprintf("%s already exists in the workspace (%s). What should happen to it?", in.Path, size(old)),
		Fields: []sdk.Field{{
			Name: "action", Title: "What to do", Required: true, Default: KeepBoth,
			Options: []sdk.Option{
				{Value: Overwrite, Title: fmt.Sprintf("Overwrite it with the note (%s); its current text is lost", size(int64(len(in.Text))))},
				{Value: Append, Title: "Append the note to it"},
				{Value: KeepBoth, Title: "Keep both: save the note as " + beside},
			},
		}},
	}
}

// freeName returns the first of name-2.ext, name-3.ext… with no file.
func freeName(tc *sdk.ToolContext, name string) (string, error) {
	ext := path.Ext(name)
	for i := 2; i < 1000; i++ {
		try := fmt.Sprintf("%s-%d%s", strings.TrimSuffix(name, ext), i, ext)
		n, err := existingNote(tc, try)
		if err != nil || n < 0 {
			return try, err
		}
	}
	return "", fmt.Errorf("%s and 998 notes beside it exist: choose another path", name)
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
//
// When a file is at the note's path, the person is asked first whether to
// overwrite it, append the note or keep both; the handler runs again with
// their answer, so everything before the question only reads.
func saveNote(tc *sdk.ToolContext, in SaveNoteInput) (sdk.Result, error) {
	old, err := existingNote(tc, in.Path)
	if err != nil {
		return sdk.Result{}, err
	}
	root, err := tc.Workspace()
	if err != nil {
		return sdk.Result{}, err
	}
	appended := false
	if old >= 0 {
		beside, err := freeName(tc, in.Path)
		if err != nil {
			return sdk.Result{}, err
		}
		choice, err := tc.Ask(existingForm(in, old, beside))
		switch {
		case errors.Is(err, sdk.ErrCannotAsk):
			return sdk.Result{}, fmt.Errorf("%s exists, and nobody could be asked whether to overwrite it, append to it or keep both (%w); save the note under another path", in.Path, err)
		case err != nil:
			return sdk.Result{}, err
		case choice.Action == sdk.Cancel:
			return sdk.Text(fmt.Sprintf("The note was not saved: the person dismissed the question about the existing %s. Ask them before trying again.", in.Path)), nil
		case !choice.Accepted():
			return sdk.Text(fmt.Sprintf("The note was not saved: the person chose to leave the existing %s alone. Do not retry the same note.", in.Path)), nil
		}
		switch choice.String("action") {
		case Append:
			prev, err := root.ReadFile(in.Path)
			if err != nil {
				return sdk.Result{}, fmt.Errorf("read %s: %s", in.Path, unwrapPathError(err))
			}
			in.Text, appended = string(prev)+in.Text, true
		case KeepBoth:
			in.Path, old = beside, -1
		}
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
	// Clients subscribed to the note, or to the index it joins, read them
	// again.
	tc.ResourceUpdated(noteURI(in.Path))
	if old < 0 {
		tc.ResourceUpdated(notesIndexURI)
	}
	if old < 0 {
		return sdk.Text(fmt.Sprintf("Saved the note as %s (%s, a new file).", in.Path, size(int64(len(in.Text))))), nil
	}
	if appended {
		return sdk.Text(fmt.Sprintf("Appended the note to %s (%s now, %s before).", in.Path, size(int64(len(in.Text))), size(old))), nil
	}
	return sdk.Text(fmt.Sprintf("Saved the note as %s (%s), replacing the previous %s.", in.Path, size(int64(len(in.Text))), size(old))), nil
}

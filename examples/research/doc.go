// Package research is an example mod that reads a workspace: it counts the
// words of a passage and searches the files under the session's workspace
// root; with a person's approval, it saves notes into it.
//
// # Tools
//
//   - research_word_count (plain) counts the words of a passage, split at
//     Unicode white space.
//   - research_search_workspace (rendered) finds a literal string, or a Go
//     regular expression, in the workspace's text files and returns the
//     matching lines. It stays inside the workspace root, skips .git, binary
//     files and files over 1 MB, reports its progress and stops when the call
//     is cancelled.
//   - research_save_note (plain) writes a note into the workspace as a .md
//     or .txt file, through the root, to a temporary file renamed over the
//     path so that a failed write leaves the old note whole. It asks a
//     person first (sdk.Approval): the reason names the file and says
//     whether the note overwrites one, and the tool is annotated
//     destructive. It refuses to replace anything but a regular file.
//   - research_open_file (plain) acts on the person's screen: it checks
//     that a workspace file has the line and returns the client action
//     open_file {path, line}, for the client to show it, with the line's
//     text for the model.
//
// # Prompt
//
// The slash command /summarize <path> [focus] is also the MCP prompt
// summarize: the workspace file, embedded as a resource read through the
// root, and a request for its summary; its path argument completes from
// the workspace's files. It has no Run: a person typing it reads the
// prompt's text.
//
// # Resources
//
// The notes are resources, for a client to read: research://notes/index
// lists the workspace's .md and .txt files as Markdown links, and the
// template research://notes/{path} reads one, its slash path
// percent-encoded as one segment (research://notes/notes%2Ffindings.md).
// The template's path completes from the notes. research_save_note tells
// the host which of the two it changed, for subscribed clients to read
// them again. A path that leaves the
// workspace, or a file that is no note, is refused as the tools refuse it:
//
//	modhost read research://notes/index
//	modhost read 'research://notes/{path}' path=notes/findings.md
//
// # Reading a workspace safely
//
// The search is the pattern to copy for a tool that reads the workspace
// while people, or other programs, may change it. A check on a path ("is it
// inside the root? is it a regular file?") followed by an open of that path
// can be raced: between the two, a file can become a symbolic link to
// outside the workspace, or a FIFO that blocks the open forever. So:
//
//   - Take the workspace as an *os.Root from [sdk.ToolContext.Workspace]
//     (commands: [sdk.Session.OpenWorkspace]) and list and open everything
//     through it: it refuses a name leading outside the root at the moment
//     of opening. Walk with fs.WalkDir(root.FS(), ".").
//   - Open files for reading with O_NONBLOCK (and O_NOCTTY), so that opening
//     a FIFO returns at once, then Stat the opened *os.File and read only a
//     regular file; never decide from the path.
//   - Read at most the size limit, even if the file grows meanwhile.
//
// readRegular in read.go does the three. A root never follows a link with
// an absolute target; the search maps such a link to its target inside the
// workspace by name, and still opens that name through the root.
//
// # For people
//
// The command research.stats counts the files and bytes in the workspace. A
// hook on every tool call refuses to search a workspace that is the
// filesystem root or the home directory. The researcher agent may call only
// this mod's reading tools: it cannot save notes.
package research

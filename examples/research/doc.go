// Package research is an example mod that reads a workspace: it counts the
// words of a passage and searches the files under the session's workspace
// root.
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
//
// # For people
//
// The command research.stats counts the files and bytes in the workspace. A
// hook on every tool call refuses to search a workspace that is the
// filesystem root or the home directory. The researcher agent may call only
// this mod's tools.
package research

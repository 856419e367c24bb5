package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// commandDoc documents one command for its --help.
type commandDoc struct {
	// args are the command's positional arguments: "TOOL [INPUT_JSON|-]".
	args string
	// summary says what the command does, one paragraph per line.
	summary string
}

// commandDocs are the commands' help texts, by command name.
var commandDocs = map[string]commandDoc{
	"list": {summary: "Lists the tools of the loaded mods, one a line: name, mod and description, " +
		"marked when the tool asks for approval, runs in the client, or its mod cannot run. " +
		"Exits 1 when a mod cannot run."},
	"inspect": {args: "[MOD]", summary: "Shows the loaded mods' manifests, or one mod's: its tools with their input " +
		"and result fields, commands, slash commands, hooks and agents. --markdown writes the same as a " +
		"Markdown reference; --json prints the manifests."},
	"call": {args: "TOOL [INPUT_JSON|-]", summary: "Runs one tool and prints the text its model reads on stdout; " +
		"its activity, client actions and approval question go to stderr. INPUT_JSON is the input object " +
		"(default {}); - reads it from stdin. A mod is built first when its cache holds no binary for its " +
		"sources; --timeout counts from when the mod is ready, not during its build.\n" +
		"Exits 0 when the call completed, 1 when it failed or was denied, 2 for a usage error or an unknown " +
		"tool, 130 when cancelled (Ctrl-C or SIGTERM)."},
	"command": {args: "ID [ARGS_JSON]", summary: "Runs a command of a loaded mod with its arguments, a JSON " +
		"value, and prints its message."},
	"slash": {args: "ID [TEXT...]", summary: "Runs a slash command (with or without its leading /) on the text " +
		"that follows, and prints its message."},
	"read": {args: "URI | URI_TEMPLATE NAME=VALUE...", summary: "Reads a resource of a loaded mod, as an MCP " +
		"client's resources/read does: by its URI, or by a resource template with a value for each of its " +
		"variables, and prints its text; of a binary resource, its MIME type and size. --out writes the " +
		"contents, text or binary, to a file.\n" +
		"Exits 2 for a URI no loaded mod has, 1 when its mod says the resource does not exist."},
	"prompt": {args: "NAME [ARG=VALUE...]", summary: "Gets the messages of a prompt (a slash command) with its " +
		"arguments, as an MCP client's prompts/get does, and prints them, each under a line naming its role. " +
		"Exits 2 for an unknown prompt, a required argument left out or one it does not declare."},
	"mcp": {summary: "Serves the loaded mods' tools over the Model Context Protocol: newline-delimited " +
		"JSON-RPC on stdin and stdout, or with --http streamable HTTP at http://ADDR/mcp.\n" +
		"On stdio it serves until stdin ends, then lets the calls in flight finish and writes their answers " +
		"(modhost mcp < requests.jsonl works); SIGINT or SIGTERM, or a stdout the client closed, cancels " +
		"them at once."},
	"dev": {summary: "Serves the mod author's web inspector on loopback and prints its URL: forms for the " +
		"tools, live activity, results and views, commands, agents; an edit of a mod regenerates, rebuilds " +
		"and restarts it. Serves until SIGINT or SIGTERM."},
	"get": {args: "MODULE[/PACKAGE][@VERSION]...", summary: "Installs published mods: fetches each module version " +
		"(default @latest) with the go command, so GOPROXY, GOSUMDB, GONOSUMDB, GOPRIVATE and GOFLAGS mean what " +
		"they mean to go get and the checksum database verifies what comes; builds the mod against the modkit " +
		"version its module requires and starts it, so a mod speaking another protocol is refused now; prints " +
		"what it offers; and pins it in ./mods.lock: module, version, the h1: hashes of its zip and go.mod, " +
		"its manifest's hash and the permissions it declares, one allow line each. PACKAGE names a mod below " +
		"the module's root.\n" +
		"Before building, get prints what the version changes against the one mods.lock pins: tools added and " +
		"removed, permissions widened and narrowed, approval rules loosened and tightened; for a mod new to " +
		"the lock, the permissions it asks for. A version that widens a permission or loosens an approval rule " +
		"needs a yes on the terminal, or --yes; without either it is not pinned, the lock keeps what it had, " +
		"and get exits 1 after pinning the other mods named.\n" +
		"A version mods.lock pins already must come with the same bytes: other bytes are refused, naming both " +
		"hashes, and the lock is left as it was."},
	"update": {args: "[MODULE...]", summary: "Moves the mods of the named modules (default: every mod in " +
		"./mods.lock) to their modules' latest versions, as get does, and rewrites the lock; a mod at its latest " +
		"version is left as it is.\n" +
		"It prints what each version changes against the locked one, as get does. A version that widens a " +
		"permission or loosens an approval rule needs a yes on the terminal, or --yes: without either, update " +
		"keeps the locked version, says what would widen, moves the other mods and exits 1; a lock with " +
		"nothing to move is left byte for byte."},
	"remove": {args: "MODULE...", summary: "Removes the mods of the named modules, or the named mod packages, " +
		"from ./mods.lock. The module cache keeps their files."},
	"verify": {summary: "Fetches every mod ./mods.lock pins again, into an empty module cache, so the module " +
		"proxy and the checksum database answer anew, and compares the hashes with the lock's; then checks the " +
		"module cache's copies. Exits 1 naming each mod whose bytes differ, with both hashes, or whose allow " +
		"lines differ from its manifest's permissions, with the line. A block without allow lines, from a lock " +
		"written before modhost recorded them, is named with the get that writes them."},
	"cache": {args: "[trim]", summary: "Shows the build cache's directory ($MODKIT_CACHE, else modkit under the user's " +
		"cache directory) and the files and bytes of each part: the mods' binaries, their build records, the " +
		"generated sources and the copies of locked modules. modhost cache trim removes the unused ones now."},
	"build": {summary: "Builds every mod the host would load (--mods and ./mods.lock) into a prebuilt cache: " +
		"the directory -o names, laid out as the host's build cache, with an index of what it holds. A host " +
		"given that directory as $MODKIT_CACHE runs the mods from it, read-only and with no go command on " +
		"its PATH: it never builds there, checks each binary against its record, and reports a mod missing " +
		"or changed since as a cache to build again. --goos and --goarch build for another platform; a host " +
		"refuses a cache built for another platform or modkit protocol. Copy the directory, with the mods' " +
		"directories, into an image (docs/deploy.md). Give it a directory of its own: a prebuilt cache is never " +
		"built into by a host again.\n" +
		"Exits 1 naming each mod that does not load or build; the cache is then not made prebuilt."},
	"sandbox": {summary: "Prints what this machine enforces of the limits on a mod process, a row per limit: enforced " +
		"by Landlock ABI N, by seccomp, every capability dropped, or why not (the Landlock the kernel offers, a " +
		"kernel refusing the seccomp filter, neither on macOS and Windows), with what the filter keeps below each " +
		"Landlock ABI. Mods from your " +
		"own sources run with what it enforces, and modhost says once on stderr what it does not; mods installed " +
		"from mods.lock need every limit kept unless --allow-unconfined; --require-confinement refuses every mod " +
		"then. $MODKIT_LANDLOCK_MAX_ABI=N confines as a kernel offering Landlock ABI N would (0: none), for tests."},
	"cache trim": {summary: "Removes from the build cache the binaries, build records, generated sources and " +
		"module copies no host has used for --unused (default 5 days), as every host does by itself once a day " +
		"after a build; like go clean -cache, but what a host is building or starting, or a process runs, stays. " +
		"A binary removed is built again when next needed. -n counts what would go, and removes nothing."},
}

// helpRequest is the error of a command whose flags asked for help.
type helpRequest struct{ fs *flag.FlagSet }

func (h *helpRequest) Error() string { return flag.ErrHelp.Error() }

// writeCommandHelp writes the help of the command whose flags are fs: its
// synopsis, what it does and its flags.
func writeCommandHelp(w io.Writer, fs *flag.FlagSet) {
	name := fs.Name()
	doc := commandDocs[name]
	synopsis := "usage: modhost [GLOBAL FLAGS] " + name
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		synopsis += " [FLAGS]"
	}
	if doc.args != "" {
		synopsis += " " + doc.args
	}
	fmt.Fprintf(w, "%s\n", synopsis)
	for _, p := range strings.Split(doc.summary, "\n") {
		fmt.Fprintf(w, "\n%s\n", wrap(p, 76))
	}
	if hasFlags {
		fmt.Fprintf(w, "\nflags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	if needsMods(name) {
		fmt.Fprintf(w, "\nglobal flags, before %s: --mods DIR[,DIR...], --workspace DIR, --agent NAME (modhost --help)\n", name)
	}
}

// wrap breaks text into lines of at most width columns, at spaces.
func wrap(text string, width int) string {
	var b strings.Builder
	col := 0
	for _, word := range strings.Fields(text) {
		switch {
		case col == 0:
		case col+1+len(word) > width:
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += len(word)
	}
	return b.String()
}

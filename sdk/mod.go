package sdk

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/modkit/modkit/internal/sdkrt"
)

// DefineMod returns the mod described by def. It is the one declaration modgen
// looks for in a mod package:
//
//	var Mod = sdk.DefineMod(sdk.Mod{...})
//
// The result is plain data: DefineMod starts nothing and reads no file. It
// notes a mod a package-level variable declares, by id, so that a test
// binary sdk/modtest re-executes can serve it in a confined process. Names,
// descriptions, ids, titles and activity labels inside def must be
// compile-time constants, so that modgen can derive the manifest without
// running any of the mod's code.
func DefineMod(def Mod) Mod {
	sdkrt.Define(def.Metadata.ID, def)
	return def
}

// Mod describes a mod: metadata, AI tools, and what people and the host run.
type Mod struct {
	// Metadata names and describes the mod.
	Metadata Metadata
	// AI holds the tools a model may call.
	AI AI
	// Commands are run by a person, with JSON arguments.
	Commands []Command
	// SlashCommands are run by a person typing "/ID text"; MCP clients
	// get them as prompts.
	SlashCommands []SlashCommand
	// Resources are documents the mod offers by URI, read by a handler.
	Resources []Resource
	// ResourceTemplates are families of resources named by a URI
	// template, read by a handler.
	ResourceTemplates []ResourceTemplate
	// Hooks run before host actions.
	Hooks []Hook
	// Agents scope which tools an agent may call.
	Agents []Agent
	// Permissions are what the mod's process may do beyond reading its
	// session's workspace; the zero value is least privilege.
	Permissions Permissions
	// Activate, when set, runs once when the mod process starts, before any
	// call. An error stops the mod from serving.
	Activate func(ctx context.Context, env *Env) error
}

// Metadata names and describes a mod.
type Metadata struct {
	// ID identifies the mod among loaded mods; the Go package name when empty.
	ID string
	// DisplayName is the mod's name for people.
	DisplayName string
	// Description says what the mod is for.
	Description string
	// Icons stand for the mod in a client's interface, and for its tools
	// that declare none.
	Icons []Icon
}

// AI holds a mod's model-facing capabilities.
type AI struct {
	// Tools are the tools a model may call, each built as a PlainTool or a
	// RenderedTool.
	Tools []Tool
}

// Command is an action a person invokes, by id, with optional JSON arguments.
type Command struct {
	// ID is unique within the mod, for example "research.stats".
	ID string
	// Title is what a person sees in a menu.
	Title string
	// Run does the work and returns a short message for the person;
	// modgen requires it.
	Run func(ctx context.Context, env *Env, args json.RawMessage) (string, error)
	// Scopes are the OAuth scopes a caller must hold to see and run the
	// command, as for a tool's Scopes: the local user holds every scope
	// unless modhost's --scopes narrows them.
	Scopes []string
}

// SlashCommand is invoked by a person typing "/ID text" in a conversation,
// and is the prompt an MCP client lists and gets by the same ID: one
// concept for both.
//
// A person typing "/ID text" runs Run with the text; when the command has
// only Prompt, the text is split into the declared Arguments (one word
// each, the last takes the rest) and the answer is the prompt's text
// messages. An MCP client getting the prompt runs Prompt with the
// arguments; when the command has only Run, Run gets the arguments' values
// joined by spaces in their declared order, and its message is the
// prompt's one user message.
type SlashCommand struct {
	// ID is what follows the slash, and the prompt's name.
	ID string
	// Title is the command's name for people; optional.
	Title string
	// Description tells the person what the command does.
	Description string
	// Arguments are the command's declared arguments, in the order a
	// person types them after "/ID": each takes one word, and the last
	// takes the rest of the line.
	Arguments []PromptArgument
	// Run receives the text after "/ID " and returns a message for the
	// person. Set Run, Prompt or both; modgen requires one.
	Run func(ctx context.Context, env *Env, text string) (string, error)
	// Prompt returns the command's prompt messages for the arguments by
	// name; optional.
	Prompt func(ctx context.Context, env *Env, args map[string]string) ([]PromptMessage, error)
	// Complete suggests values for one of Arguments as a person types it;
	// optional.
	Complete func(ctx context.Context, env *Env, req CompletionRequest) (Completion, error)
	// Scopes are the OAuth scopes a caller must hold to see and get the
	// prompt, as for a tool's Scopes.
	Scopes []string
	// Icons stand for the prompt in a client's interface; the mod's when
	// empty.
	Icons []Icon
}

// Hook runs before a host action. Returning an error blocks the action; the
// error's text says why.
type Hook struct {
	// BeforeAction is a host action (ActionToolCall, ActionCommandRun) or
	// "command:<id>" for one of this mod's own commands; anything else is a
	// generate-time error.
	BeforeAction string
	// Run inspects the action about to happen; modgen requires it.
	Run func(ctx context.Context, env *Env, action Action) error
}

// Host actions a Hook may target. They equal manifest.HostActions; sdk does
// not import manifest, so that mod binaries do not link its schema checker.
const (
	// ActionToolCall is any tool call, of any loaded mod.
	ActionToolCall = "tool.call"
	// ActionCommandRun is any command run, of any loaded mod.
	ActionCommandRun = "command.run"
)

// Action is what a hook is shown before it happens.
type Action struct {
	// Name is the host action, or "command:<id>".
	Name string
	// Tool is the tool about to be called, for ActionToolCall.
	Tool string
	// Command is the command about to run, for command actions.
	Command string
	// Input is the tool input or command arguments, already validated.
	Input json.RawMessage
}

// Agent names the tools it may call. The host enforces the list; an empty
// list means the agent may call no tool.
type Agent struct {
	// Name identifies the agent, for example "researcher".
	Name string
	// Description says what the agent is for.
	Description string
	// Tools are the tool names the agent may call.
	Tools []string
}

// Session is the conversation a call belongs to.
type Session struct {
	// ID identifies the session.
	ID string
	// Workspace is the absolute root directory the host hands over; tools that
	// read files stay below it: open it with ToolContext.Workspace or
	// OpenWorkspace.
	Workspace string
}

// Env is what commands, hooks and activation receive from the host.
type Env struct {
	// Session is the calling session.
	Session Session
	// Today is the date the host gives, "YYYY-MM-DD"; never read the wall clock
	// for today.
	Today string
	// Logger writes to the host's log, never to stdout.
	Logger *slog.Logger
	// notify receives ResourceUpdated's URIs; nil drops them.
	notify func(uri string)
	// ask answers a Prompt's questions; nil means none can be asked.
	ask sdkrt.Asker
}

package manifest

import (
	"bytes"
	"encoding/json"
	"slices"
)

// FormatVersion is the manifest format this package writes. A manifest whose
// major version is newer is refused when decoding.
const FormatVersion = "1.0"

// FileName is the name of the manifest file beside a mod's Go package.
const FileName = "mod.manifest.json"

// Host actions a BeforeAction hook may target, besides "command:<id>" for one
// of the mod's own commands.
const (
	// ActionToolCall runs before any tool call the host makes.
	ActionToolCall = "tool.call"
	// ActionCommandRun runs before any command the host runs.
	ActionCommandRun = "command.run"
)

// HostActions returns the host actions a hook may target, in a stable
// order, in a new slice.
func HostActions() []string { return []string{ActionToolCall, ActionCommandRun} }

// Manifest describes one mod: everything a host needs to list, validate and
// route its tools and commands without starting the mod.
type Manifest struct {
	// FormatVersion is the manifest format, "MAJOR.MINOR".
	FormatVersion string `json:"formatVersion"`
	// ID identifies the mod among loaded mods.
	ID string `json:"id"`
	// DisplayName is the mod's name for people.
	DisplayName string `json:"displayName"`
	// Description says what the mod is for.
	Description string `json:"description"`
	// Icons stand for the mod in a client's interface, and for its tools
	// that have none of their own.
	Icons []Icon `json:"icons,omitempty"`
	// GoPackage is the import path of the package the manifest was generated from.
	GoPackage string `json:"goPackage"`
	// SourceHash is "sha256:<hex>" over the Go sources the manifest was generated from.
	SourceHash string `json:"sourceHash"`
	// Tools are the mod's AI tools.
	Tools []Tool `json:"tools"`
	// Commands are run by a person.
	Commands []Command `json:"commands,omitempty"`
	// SlashCommands are run by a person typing "/id", and are the mod's
	// MCP prompts.
	SlashCommands []SlashCommand `json:"slashCommands,omitempty"`
	// Resources are the documents the mod offers at fixed URIs.
	Resources []Resource `json:"resources,omitempty"`
	// ResourceTemplates are the families of resources the mod offers by
	// URI template.
	ResourceTemplates []ResourceTemplate `json:"resourceTemplates,omitempty"`
	// Hooks run before host actions.
	Hooks []Hook `json:"hooks,omitempty"`
	// Agents name the tools each agent may call.
	Agents []Agent `json:"agents,omitempty"`
	// ClientActions are the kinds of client action the mod's tools may
	// emit, each once.
	ClientActions []ClientActionKind `json:"clientActions,omitempty"`
	// Permissions are what the mod's process may do beyond reading its
	// session's workspace; nil when it declares nothing.
	Permissions *Permissions `json:"permissions,omitempty"`
}

// ToolKind tells a plain tool from a rendered one.
type ToolKind string

const (
	// KindPlain tools return text and an optional output.
	KindPlain ToolKind = "plain"
	// KindRendered tools return a typed result and a view of it.
	KindRendered ToolKind = "rendered"
)

// Tool describes one AI tool.
type Tool struct {
	// Name is the snake_case name the model calls.
	Name string `json:"name"`
	// Title is the tool's name for people.
	Title string `json:"title,omitempty"`
	// Description tells the model what the tool does and when to call it.
	Description string `json:"description"`
	// Activity is the present-tense label shown while the tool runs.
	Activity string `json:"activity,omitempty"`
	// Icons stand for the tool in a client's interface.
	Icons []Icon `json:"icons,omitempty"`
	// Kind is plain or rendered.
	Kind ToolKind `json:"kind"`
	// InputSchema is the JSON Schema (draft 2020-12) of the tool's input.
	InputSchema json.RawMessage `json:"inputSchema"`
	// ResultSchema is the JSON Schema of a rendered tool's result.
	ResultSchema json.RawMessage `json:"resultSchema,omitempty"`
	// HasView reports whether the tool renders a custom HTML view.
	HasView bool `json:"hasView,omitempty"`
	// Annotations say what the tool does to the world; nil when the tool
	// declares none.
	Annotations *Annotations `json:"annotations,omitempty"`
	// Approval says when a call of the tool waits for a person's approval;
	// nil when it never does.
	Approval *Approval `json:"approval,omitempty"`
	// ClientActions are the kinds of client action the tool may emit,
	// each one of the manifest's ClientActions.
	ClientActions []string `json:"clientActions,omitempty"`
	// Runs says where the tool's calls run: absent (RunsInMod) in the mod,
	// RunsInClient only in the client application, RunsEither in the
	// client when it handles the tool and in the mod otherwise.
	Runs Runs `json:"runs,omitempty"`
	// Task says whether calls run as MCP tasks: absent never,
	// TaskOptional when the client supports tasks, TaskRequired always.
	Task TaskSupport `json:"task,omitempty"`
	// Scopes are the OAuth scopes a caller must hold to see and call the
	// tool, each an RFC 6749 scope-token; none for a tool anyone may call.
	Scopes []string `json:"scopes,omitempty"`
}

// TaskSupport says whether a tool's calls run as MCP tasks.
type TaskSupport string

// The task supports a tool may declare.
const (
	TaskOptional TaskSupport = "optional"
	TaskRequired TaskSupport = "required"
)

// Annotations are a tool's declared behaviour, hints for clients that decide
// whether to ask a person before a call (MCP's tool annotations).
type Annotations struct {
	// ReadOnly: the tool changes nothing outside the call.
	ReadOnly bool `json:"readOnly"`
	// Destructive: the tool may delete or overwrite what exists.
	Destructive bool `json:"destructive"`
	// Idempotent: a second call with the same input changes nothing more.
	Idempotent bool `json:"idempotent"`
	// OpenWorld: the tool reaches beyond the session's workspace.
	OpenWorld bool `json:"openWorld"`
}

// ApprovalWhen says which calls of a tool need a person's approval.
type ApprovalWhen string

const (
	// ApprovalAlways: every call, for the tool's one Reason.
	ApprovalAlways ApprovalWhen = "always"
	// ApprovalByInput: the calls the mod picks from their input, each with
	// a reason of its own.
	ApprovalByInput ApprovalWhen = "byInput"
)

// Approval says when a tool's calls wait for a person's approval.
type Approval struct {
	// When is always or byInput.
	When ApprovalWhen `json:"when"`
	// Reason is what the person reads when every call needs approval;
	// empty for byInput, whose reasons the mod gives per call.
	Reason string `json:"reason,omitempty"`
}

// Command is run by a person.
type Command struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Scopes are the OAuth scopes a caller must hold to see and run the
	// command, as for a tool's.
	Scopes []string `json:"scopes,omitempty"`
}

// SlashCommand is run by a person typing "/ID args", and is an MCP prompt
// of the same name.
type SlashCommand struct {
	ID          string `json:"id"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	// Arguments are the declared arguments, in the order typed.
	Arguments []Argument `json:"arguments,omitempty"`
	// Completes says the mod suggests values for the arguments.
	Completes bool `json:"completes,omitempty"`
	// Scopes are the OAuth scopes a caller must hold to see and get the
	// prompt, as for a tool's.
	Scopes []string `json:"scopes,omitempty"`
	// Icons stand for the prompt in a client's interface.
	Icons []Icon `json:"icons,omitempty"`
}

// Argument is one declared argument of a slash command.
type Argument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Hook runs before a host action or one of the mod's own commands.
type Hook struct {
	// BeforeAction is a host action or "command:<id>".
	BeforeAction string `json:"beforeAction"`
}

// Agent names the tools an agent may call; an empty list allows none.
type Agent struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Tools       []string `json:"tools"`
}

// Clone returns a deep copy of m: changing one never changes the other.
func (m *Manifest) Clone() *Manifest {
	c := *m
	c.Icons = cloneIcons(m.Icons)
	c.Tools = cloneEach(m.Tools, Tool.Clone)
	c.Commands = cloneEach(m.Commands, func(k Command) Command {
		k.Scopes = slices.Clone(k.Scopes)
		return k
	})
	c.SlashCommands = cloneEach(m.SlashCommands, func(s SlashCommand) SlashCommand {
		s.Arguments = slices.Clone(s.Arguments)
		s.Scopes = slices.Clone(s.Scopes)
		s.Icons = cloneIcons(s.Icons)
		return s
	})
	c.Resources = cloneEach(m.Resources, func(r Resource) Resource {
		r.Scopes = slices.Clone(r.Scopes)
		r.Icons = cloneIcons(r.Icons)
		return r
	})
	c.ResourceTemplates = cloneEach(m.ResourceTemplates, func(t ResourceTemplate) ResourceTemplate {
		t.Scopes = slices.Clone(t.Scopes)
		t.Icons = cloneIcons(t.Icons)
		return t
	})
	c.Hooks = slices.Clone(m.Hooks)
	c.Agents = cloneEach(m.Agents, func(a Agent) Agent {
		a.Tools = slices.Clone(a.Tools)
		return a
	})
	c.ClientActions = cloneEach(m.ClientActions, func(k ClientActionKind) ClientActionKind {
		k.ParamsSchema = bytes.Clone(k.ParamsSchema)
		return k
	})
	if m.Permissions != nil {
		p := *m.Permissions
		p.Connect = slices.Clone(p.Connect)
		p.Run = slices.Clone(p.Run)
		p.Read = slices.Clone(p.Read)
		p.Env = slices.Clone(p.Env)
		c.Permissions = &p
	}
	return &c
}

// Clone returns a deep copy of t.
func (t Tool) Clone() Tool {
	t.InputSchema = bytes.Clone(t.InputSchema)
	t.ResultSchema = bytes.Clone(t.ResultSchema)
	if t.Approval != nil {
		a := *t.Approval
		t.Approval = &a
	}
	if t.Annotations != nil {
		a := *t.Annotations
		t.Annotations = &a
	}
	t.ClientActions = slices.Clone(t.ClientActions)
	t.Scopes = slices.Clone(t.Scopes)
	t.Icons = cloneIcons(t.Icons)
	return t
}

func cloneIcons(icons []Icon) []Icon {
	return cloneEach(icons, func(ic Icon) Icon {
		ic.Sizes = slices.Clone(ic.Sizes)
		return ic
	})
}

func cloneEach[T any](xs []T, clone func(T) T) []T {
	if xs == nil {
		return nil
	}
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = clone(x)
	}
	return out
}

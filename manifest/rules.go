package manifest

// A Rule is one check [Validate] makes on what a mod's author declares:
// a tool's name, a command's title, a hook's target. modgen runs the same
// rules on the manifest it builds and reports each problem at the
// declaration's file:line:col, so a mod that generates is a mod the host
// loads.
//
// Checks on what the generator itself writes (the format version, the
// source hash, tool kinds, schemas) are made by [Validate] too, but are
// not rules: an author cannot break them.
type Rule struct {
	// Name identifies the rule, like "command-title".
	Name string
	// Doc says what the rule asks of a declaration.
	Doc string
}

// rules is every rule, in the order they are declared.
var rules []*Rule

// rule declares a rule; every rule is a package-level variable made by it,
// so [Rules] lists them all.
func rule(name, doc string) *Rule {
	r := &Rule{Name: name, Doc: doc}
	rules = append(rules, r)
	return r
}

// Rules returns every rule [Validate] applies to a mod's declarations.
func Rules() []Rule {
	out := make([]Rule, len(rules))
	for i, r := range rules {
		out[i] = *r
	}
	return out
}

// The rules. To add one, declare it here, report it from [Validate] with
// its [Location], and give modgen's rulebook test a case that breaks it.
var (
	ruleModID = rule("mod-id", "a mod's id is lower-case letters, digits, '_', '.' or '-', starting with a letter")

	ruleToolName        = rule("tool-name", "a tool's name is snake_case")
	ruleToolNameUnique  = rule("tool-name-unique", "no two tools share a name")
	ruleToolDescription = rule("tool-description", "a tool has a description")
	ruleToolApproval    = rule("tool-approval", "an approval rule is always-with-a-reason or byInput-without-one")
	ruleToolActionsOnce = rule("tool-client-actions-once", "a tool lists each kind of client action once")
	ruleToolScope       = rule("tool-scope", "a tool's scope is an OAuth scope-token (RFC 6749: printable ASCII but space, '\"' and '\\'), listed once")

	ruleCommandID       = rule("command-id", "a command's id is lower-case words joined by '.'")
	ruleCommandIDUnique = rule("command-id-unique", "no two commands share an id")
	ruleCommandTitle    = rule("command-title", "a command has a title for people to pick it by")
	ruleCommandScope    = rule("command-scope", "a command's scope is an OAuth scope-token, listed once, as a tool's")

	ruleSlashID          = rule("slash-id", "a slash command's id is lower-case letters, digits, '_' or '-'")
	ruleSlashIDUnique    = rule("slash-id-unique", "no two slash commands share an id")
	ruleSlashDescription = rule("slash-description", "a slash command has a description")
	ruleSlashScope       = rule("slash-scope", "a slash command's scope is an OAuth scope-token, listed once, as a tool's")
	ruleArgumentName     = rule("argument-name", "an argument's name is letters, digits, '_' or '-'")
	ruleArgumentUnique   = rule("argument-unique", "no two arguments of a slash command share a name")
	ruleArgumentOrder    = rule("argument-order", "required arguments come before optional ones")

	ruleHookTarget = rule("hook-target", "a hook runs before a host action or a command of its mod")

	ruleAgentName       = rule("agent-name", "an agent's name is lower-case letters, digits, '_' or '-'")
	ruleAgentNameUnique = rule("agent-name-unique", "no two agents share a name")
	ruleAgentTools      = rule("agent-tools", "an agent's allowlist names no empty tool")

	ruleClientActionKind        = rule("client-action-kind", "a client action kind is snake_case")
	ruleClientActionDescription = rule("client-action-description", "a client action kind has a description")

	ruleResourceURI         = rule("resource-uri", "a resource's uri has a scheme, no white space and no {variable}")
	ruleResourceURIUnique   = rule("resource-uri-unique", "no two resources share a uri")
	ruleTemplateURI         = rule("resource-template-uri", "a resource template is an RFC 6570 level-1 template")
	ruleTemplateURIUnique   = rule("resource-template-uri-unique", "no two resource templates share a uri template")
	ruleResourceName        = rule("resource-name", "a resource's or template's name is letters, digits, '_', '.' or '-'")
	ruleResourceNameUnique  = rule("resource-name-unique", "no two resources or templates share a name")
	ruleResourceDescription = rule("resource-description", "a resource or template has a description")
	ruleResourceMIMEType    = rule("resource-mime-type", "a resource's or template's mimeType is a MIME type")
	ruleResourceScope       = rule("resource-scope", "a resource's or template's scope is an OAuth scope-token, listed once, as a tool's")
)

// Location says which declaration a [Problem] is about, for tools that
// map it back to source: modgen reports it at the literal.
type Location struct {
	// List is the manifest's list holding the entry, like "tools"; empty
	// for a top-level field.
	List string
	// Index is the entry's index in List.
	Index int
	// Field is the entry's (or, with no List, the manifest's) field, like
	// "name"; empty for the entry as a whole.
	Field string
	// Item is the index in Field when Field is a list, like a slash
	// command's "arguments"; -1 otherwise.
	Item int
}

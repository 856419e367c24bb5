package manifest

import (
	"fmt"
	"strings"
)

// ident is how one kind of entry is named: the field that names it, the
// rule and form of that name, and the rule that keeps it unique.
type ident struct {
	// field is the naming field: "name", "id" or "kind".
	field string
	// rule is the rule the name's form follows; form the pattern it
	// matches, and formMsg what a name of another form is told.
	rule    *Rule
	form    func(string) bool
	formMsg string
	// unique is the rule a duplicate breaks (nil: a duplicate is a problem
	// of what a generator writes), and dupMsg its words.
	unique *Rule
	dupMsg string
}

var (
	toolIdent = ident{field: "name", rule: ruleToolName, form: snakeCase, formMsg: "name must be snake_case",
		unique: ruleToolNameUnique, dupMsg: "duplicate tool name"}
	commandIdent = ident{field: "id", rule: ruleCommandID, form: commandID, formMsg: "id must be lower-case words joined by '.', like \"research.stats\"",
		unique: ruleCommandIDUnique, dupMsg: "duplicate command id"}
	slashIdent = ident{field: "id", rule: ruleSlashID, form: slashID, formMsg: "id must be lower-case letters, digits, '_' or '-', starting with a letter",
		unique: ruleSlashIDUnique, dupMsg: "duplicate slash command id"}
	agentIdent = ident{field: "name", rule: ruleAgentName, form: agentName, formMsg: "name must be lower-case letters, digits, '_' or '-', starting with a letter",
		unique: ruleAgentNameUnique, dupMsg: "duplicate agent name"}
	clientActionIdent = ident{field: "kind", rule: ruleClientActionKind, form: snakeCase, formMsg: "kind must be snake_case",
		dupMsg: "duplicate kind"}
)

// named checks the name of entry i of list: not empty, of its form, and
// not one that seen (names to their entries' indexes, which it joins)
// already holds.
func (v *validator) named(id ident, list string, i int, entry, name string, seen map[string]int) {
	loc := at(list, i, id.field)
	switch {
	case name == "":
		v.rule(id.rule, loc, entry, id.field+" is empty")
	case !id.form(name):
		v.rule(id.rule, loc, entry, id.formMsg)
	}
	j, dup := seen[name]
	switch {
	case !dup || name == "":
		seen[name] = i
	case id.unique == nil:
		v.problems = append(v.problems, Problem{Entry: entry, Message: id.dupMsg, First: fmt.Sprintf("%s[%d]", list, j), At: Location{Item: -1}})
	default:
		v.dup(id.unique, loc, entry, id.dupMsg, at(list, j, id.field))
	}
}

// described checks that field (a description or title) of entry i of
// list says something, by rule.
func (v *validator) described(rule *Rule, list string, i int, field, entry, text string) {
	if strings.TrimSpace(text) == "" {
		v.rule(rule, at(list, i, field), entry, field+" is empty")
	}
}

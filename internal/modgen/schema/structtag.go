package schema

import (
	"fmt"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"
)

// anchorName is what $anchor accepts.
var anchorName = regexp.MustCompile(`^[A-Za-z_][-A-Za-z0-9._]*$`)

// structTag applies the jsonschema tag of a blank field of struct type t
// to its object schema s: anchor, anyRequired, and if/then/else.
func (g *Generator) structTag(t types.Type, s *Schema, raw string, pos token.Pos) {
	outer := g.field
	g.field = "" // the position is the blank field's, in the struct itself
	defer func() { g.field = outer }()
	items, err := parseStructTag(raw)
	if err != nil {
		g.errorf(pos, "%v", err)
		return
	}
	var cond *Cond
	bad := false // a problem with the if/then/else, already reported
	for _, it := range items {
		switch it.key {
		case "anchor":
			if err := g.anchor(t, s, it.value); err != nil {
				g.errorf(pos, "%v", err)
			}
		case "anyRequired":
			group := strings.Split(it.value, "|")
			if err := optionalProps(s, it.key, group); err != nil {
				g.errorf(pos, "%v", err)
				continue
			}
			if len(group) < 2 {
				g.errorf(pos, "anyRequired=%s: want two or more properties separated by |", it.value)
				continue
			}
			s.AnyRequired = append(s.AnyRequired, group)
		case "if", "then", "else":
			if cond == nil {
				cond = &Cond{}
			}
			if err := cond.set(s, it); err != nil {
				g.errorf(pos, "%v", err)
				bad = true
			}
		}
	}
	if cond == nil || bad {
		return
	}
	switch {
	case cond.If == "":
		g.errorf(pos, "then and else want an if=property=value")
	case cond.Then == nil && cond.Else == nil:
		g.errorf(pos, "if=%s wants then, else or both", cond.If)
	default:
		s.Cond = cond
	}
}

// anchor sets s's $anchor, unique among the types g converts.
func (g *Generator) anchor(t types.Type, s *Schema, name string) error {
	if !anchorName.MatchString(name) {
		return fmt.Errorf("anchor=%s: want a letter or _ then letters, digits, '-', '_' or '.'", name)
	}
	if g.anchors == nil {
		g.anchors = map[string]string{}
	}
	k := typeKey(t)
	if other, ok := g.anchors[name]; ok && other != k {
		return fmt.Errorf("anchor=%s: %s has it already", name, other)
	}
	g.anchors[name] = k
	s.Anchor = name
	return nil
}

// set reads one of if, then and else into c.
func (c *Cond) set(s *Schema, it tagItem) error {
	switch it.key {
	case "if":
		if c.If != "" {
			return fmt.Errorf("if is given twice: a struct has one if/then/else")
		}
		name, value, ok := strings.Cut(it.value, "=")
		if !ok {
			return fmt.Errorf("if=%s: want if=property=value", it.value)
		}
		p := property(s, name)
		if p == nil {
			return fmt.Errorf("if=%s: no property %q: want one of %s", it.value, name, propNames(s))
		}
		lit, err := literal(p, value)
		if err != nil {
			return fmt.Errorf("if=%s: %v", it.value, err)
		}
		if p.Type == "" || p.Type == "object" || p.Type == "array" || p.Ref != "" {
			return fmt.Errorf("if=%s: want a string, number or boolean property", it.value)
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, lit) {
			return fmt.Errorf("if=%s: %s is none of the property's values %s", it.value, lit, strings.Join(p.Enum, ", "))
		}
		c.If, c.IfConst = name, lit
	case "then", "else":
		names := strings.Fields(it.value)
		if err := optionalProps(s, it.key, names); err != nil {
			return err
		}
		if len(names) == 0 {
			return fmt.Errorf("%s wants the properties it requires, separated by spaces", it.key)
		}
		if it.key == "then" {
			c.Then = names
		} else {
			c.Else = names
		}
	}
	return nil
}

// optionalProps checks that names are properties of s, each once, that s
// does not always require.
func optionalProps(s *Schema, key string, names []string) error {
	for i, n := range names {
		switch {
		case property(s, n) == nil:
			return fmt.Errorf("%s: no property %q: want one of %s", key, n, propNames(s))
		case slices.Contains(s.Required, n):
			return fmt.Errorf("%s: property %q is always required: make it optional (omitempty, a pointer or the bare keyword optional)", key, n)
		case slices.Contains(names[:i], n):
			return fmt.Errorf("%s: property %q is given twice", key, n)
		}
	}
	return nil
}

// property returns the schema of s's property name, or nil.
func property(s *Schema, name string) *Schema {
	for _, p := range s.Properties {
		if p.Name == name {
			return p.Schema
		}
	}
	return nil
}

// propNames lists s's property names.
func propNames(s *Schema) string {
	q := make([]string, len(s.Properties))
	for i, p := range s.Properties {
		q[i] = p.Name
	}
	return strings.Join(q, ", ")
}

package schema

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// constraintKeys are the keys a `jsonschema:"..."` tag may set, with the
// JSON type they apply to ("" for any).
var constraintKeys = map[string]string{
	"minimum":          "number",
	"maximum":          "number",
	"exclusiveMinimum": "number",
	"exclusiveMaximum": "number",
	"multipleOf":       "number",
	"minLength":        "string",
	"maxLength":        "string",
	"pattern":          "string",
	"format":           "string",
	"minItems":         "array",
	"maxItems":         "array",
	"uniqueItems":      "array",
	"minProperties":    "object",
	"maxProperties":    "object",
	"enum":             "",
	"default":          "",
	// x-mcp-header names the HTTP header (Mcp-Param-<name>) in which an MCP
	// client of protocol 2026-07-28 mirrors the field's value.
	"x-mcp-header": "",
}

// structKeys are the keys the jsonschema tag of a struct's blank field
// (a field named _, of type struct{}) may set: they constrain the struct as
// a whole.
var structKeys = map[string]string{
	// anchor names the struct's schema ($anchor).
	"anchor": "",
	// anyRequired=a|b: at least one of the properties a and b is present.
	"anyRequired": "",
	// if=p=v, then=a b, else=c: when property p is v, a and b are
	// required; otherwise c is.
	"if":   "",
	"then": "",
	"else": "",
}

// tagItem is one key=value item of a jsonschema tag.
type tagItem struct {
	key, value string
}

// parsedTag is a `jsonschema:"..."` tag taken apart.
type parsedTag struct {
	items       []tagItem
	required    bool
	optional    bool
	enum        bool // the bare keyword: the type's typed constants, whatever its module
	description string
}

// parseTag reads leading key=value items and bare keywords; the rest of the
// tag is the description. A value may be a Go quoted string, for values
// that hold commas.
func parseTag(tag string) (parsedTag, error) { return parseTagKeys(tag, constraintKeys) }

// parseStructTag parses the tag of a struct's blank field: key=value items
// of structKeys only.
func parseStructTag(tag string) ([]tagItem, error) {
	p, err := parseTagKeys(tag, structKeys)
	if err == nil && (p.required || p.optional || p.enum || p.description != "") {
		err = fmt.Errorf("the tag of a blank field takes %s items only, not %q", keyList(structKeys), tag)
	}
	return p.items, err
}

func parseTagKeys(tag string, keys map[string]string) (parsedTag, error) {
	var p parsedTag
	rest := tag
	for rest != "" {
		item := rest
		next := ""
		if i := strings.IndexByte(rest, ','); i >= 0 {
			item, next = rest[:i], rest[i+1:]
		}
		switch strings.TrimSpace(item) {
		case "required":
			p.required = true
			rest = next
			continue
		case "optional":
			p.optional = true
			rest = next
			continue
		case "enum":
			p.enum = true
			rest = next
			continue
		}
		eq := strings.IndexByte(item, '=')
		if eq <= 0 || !isIdent(strings.TrimSpace(item[:eq])) {
			break
		}
		key := strings.TrimSpace(item[:eq])
		if _, ok := keys[key]; !ok {
			if _, onStruct := structKeys[key]; onStruct {
				return p, fmt.Errorf("jsonschema tag key %s constrains a struct: put it in the tag of the struct's blank field, _ struct{}", key)
			}
			if _, onField := constraintKeys[key]; onField {
				return p, fmt.Errorf("jsonschema tag key %s constrains a field, not a struct's blank field: want one of %s", key, keyList(structKeys))
			}
			return p, fmt.Errorf("unknown jsonschema tag key %q: want one of %s, or the bare keywords required, optional and enum", key, knownKeys())
		}
		value := strings.TrimLeft(rest[eq+1:], " ")
		if value != "" && (value[0] == '"' || value[0] == '`') {
			q, err := strconv.QuotedPrefix(value)
			if err != nil {
				return p, fmt.Errorf("jsonschema tag key %s: bad quoted value: %v", key, err)
			}
			v, _ := strconv.Unquote(q)
			after := strings.TrimLeft(value[len(q):], " ")
			if after != "" && after[0] != ',' {
				return p, fmt.Errorf("jsonschema tag key %s: want ',' after quoted value", key)
			}
			next = strings.TrimPrefix(after, ",")
			value = v
		} else {
			value = strings.TrimSpace(item[eq+1:])
		}
		p.items = append(p.items, tagItem{key, value})
		rest = next
	}
	p.description = strings.TrimSpace(rest)
	if p.required && p.optional {
		return p, fmt.Errorf("jsonschema tag says both required and optional")
	}
	return p, nil
}

// knownKeys lists the tag keys, sorted.
func knownKeys() string { return keyList(constraintKeys) }

// keyList lists a set of tag keys, sorted.
func keyList(set map[string]string) string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '-')) {
			return false
		}
	}
	return true
}

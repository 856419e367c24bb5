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
func parseTag(tag string) (parsedTag, error) {
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
		if _, ok := constraintKeys[key]; !ok {
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
func knownKeys() string {
	keys := make([]string, 0, len(constraintKeys))
	for k := range constraintKeys {
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

package schemaview

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/modkit/modkit/internal/words"
)

// View is a schema as people read it: the root's type and the rows of its
// field tree.
type View struct {
	// Type is the root's type in JSON terms, like "object".
	Type string `json:"type"`
	// Fields are the rows, in declaration order, each after its parent.
	Fields []Field `json:"fields"`
}

// Field is one row of a schema's field tree.
type Field struct {
	// Path is where the field is, in JSON Pointer form with "*" for any
	// array element and "{key}" for any map key: "/filters/kind",
	// "/items/*/name", "/weights/{key}/value".
	Path string `json:"path"`
	// Name is the last element of Path.
	Name string `json:"name"`
	// Depth is the nesting level, 0 at the top.
	Depth int `json:"depth"`
	// Type is the field's type in JSON terms: "string", "array of
	// integer", `one of "a", "b"`, "object or null".
	Type     string `json:"type"`
	Required bool   `json:"required"`
	// Doc is the field's description.
	Doc string `json:"description,omitempty"`
	// Rules are the field's constraints as keyword=value, like
	// "maxLength=100".
	Rules []string `json:"constraints,omitempty"`
}

type node map[string]json.RawMessage

// timePattern is words.TimePattern as the schema's JSON writes it.
var timePattern = func() string {
	b, _ := json.Marshal(words.TimePattern)
	return string(b)
}()

// Of flattens a JSON Schema into rows, in declaration order, resolving
// local $refs; a recursive reference is shown once. A schema that is not a
// JSON object has Type "invalid schema" and no fields.
func Of(schema json.RawMessage) View {
	fs, typ := fields(schema)
	if fs == nil {
		fs = []Field{}
	}
	return View{Type: typ, Fields: fs}
}

func fields(schema json.RawMessage) ([]Field, string) {
	var root node
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, "invalid schema"
	}
	w := &walker{root: root, seen: map[string]bool{}}
	if ref := w.str(root, "$ref"); ref != "" {
		w.seen[ref] = true // a recursive root: shown once
	}
	n := w.resolve(root)
	var out []Field
	w.children(n, "", 0, &out)
	return out, w.typeOf(n)
}

type walker struct {
	root node
	seen map[string]bool
}

func (w *walker) str(n node, key string) string {
	var s string
	json.Unmarshal(n[key], &s)
	return s
}

func refName(ref string) string {
	return ref[strings.LastIndexByte(ref, '/')+1:]
}

// resolve follows a local $ref to its definition.
func (w *walker) resolve(n node) node {
	for i := 0; i < 16; i++ {
		ref := w.str(n, "$ref")
		if !strings.HasPrefix(ref, "#/") {
			return n
		}
		cur := w.root
		for _, tok := range strings.Split(ref[2:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			var next node
			if json.Unmarshal(cur[tok], &next) != nil {
				return n
			}
			cur = next
		}
		n = cur
	}
	return n
}

// typeOf writes a schema's type in JSON terms: "string", "array of
// string", "object of integer", `one of "a", "b"`, "object or null".
func (w *walker) typeOf(n node) string {
	if w.str(n, "$ref") != "" {
		target := w.resolve(n)
		if w.str(target, "$ref") != "" {
			return "object"
		}
		return w.typeOf(target)
	}
	var enum []json.RawMessage
	if json.Unmarshal(n["enum"], &enum) == nil && len(enum) > 0 {
		vals := make([]string, len(enum))
		for i, v := range enum {
			vals[i] = string(v)
		}
		return "one of " + strings.Join(vals, ", ")
	}
	if c, ok := n["const"]; ok {
		return string(c)
	}
	var types []string
	if t := w.str(n, "type"); t != "" {
		types = []string{t}
	} else {
		json.Unmarshal(n["type"], &types)
	}
	for i, t := range types {
		switch t {
		case "array":
			var items node
			if json.Unmarshal(n["items"], &items) == nil {
				types[i] = "array of " + w.typeOf(items)
			}
		case "object":
			var add node
			if json.Unmarshal(n["additionalProperties"], &add) == nil && len(n["properties"]) == 0 {
				types[i] = "object of " + w.typeOf(add)
			}
		case "string":
			if f := w.str(n, "format"); f != "" && f != "int64" && f != "uint64" {
				types[i] = "string (" + f + ")"
			}
		}
	}
	if len(types) == 0 {
		for _, k := range []string{"anyOf", "oneOf"} {
			var alts []node
			if json.Unmarshal(n[k], &alts) == nil && len(alts) > 0 {
				for _, a := range alts {
					if w.str(a, "type") != "null" {
						types = append(types, w.typeOf(a))
					}
				}
				if len(types) < len(alts) {
					types = append(types, "null")
				}
				break
			}
		}
	}
	if len(types) == 0 {
		return "any JSON value"
	}
	return strings.Join(types, " or ")
}

// range64 are the ends of the 64-bit integers' ranges, which a schema
// states as bounds.
var range64 = map[string]bool{"-9223372036854775808": true, "9223372036854775807": true, "18446744073709551615": true}

func (w *walker) rules(n node) []string {
	var out []string
	for _, k := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
		"minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
		"minProperties", "maxProperties", "default"} {
		v, ok := n[k]
		if !ok {
			continue
		}
		val := string(bytes.TrimSpace(v))
		if k == "pattern" && val == timePattern {
			continue // a date-time's format says it
		}
		if (k == "minimum" || k == "maximum") && range64[val] {
			continue // a 64-bit integer's own range, noise to a reader
		}
		out = append(out, k+"="+val)
	}
	return out
}

// present returns the branch of an optional value that is not null.
func (w *walker) present(n node) node {
	var alts []node
	if json.Unmarshal(n["anyOf"], &alts) != nil {
		return n
	}
	for _, a := range alts {
		if w.str(a, "type") != "null" {
			return a
		}
	}
	return n
}

// children appends the rows below n: an object's properties, an array's
// item properties, a map's value properties.
func (w *walker) children(n node, prefix string, depth int, out *[]Field) {
	n = w.present(n)
	if ref := w.str(n, "$ref"); ref != "" {
		if w.seen[ref] {
			return
		}
		w.seen[ref] = true
		defer delete(w.seen, ref)
		n = w.resolve(n)
	}
	var items node
	if json.Unmarshal(n["items"], &items) == nil {
		w.children(items, prefix+"/*", depth, out)
		return
	}
	props, ok := n["properties"]
	if !ok {
		var add node
		if json.Unmarshal(n["additionalProperties"], &add) == nil {
			w.children(add, prefix+"/{key}", depth, out)
		}
		return
	}
	var required []string
	json.Unmarshal(n["required"], &required)
	req := map[string]bool{}
	for _, r := range required {
		req[r] = true
	}
	var pm map[string]node
	json.Unmarshal(props, &pm)
	for _, name := range orderedKeys(props) {
		p := pm[name]
		path := prefix + "/" + pointerToken(name)
		target := w.resolve(w.present(p))
		doc := w.str(p, "description")
		if doc == "" {
			doc = w.str(target, "description")
		}
		rules := w.rules(p)
		if len(rules) == 0 {
			if inner := w.present(p); w.str(inner, "$ref") != "" {
				rules = w.rules(w.resolve(inner))
			}
		}
		*out = append(*out, Field{Path: path, Name: name, Depth: depth, Type: w.typeOf(p), Required: req[name], Doc: doc, Rules: rules})
		w.children(p, path, depth+1, out)
	}
}

// orderedKeys returns an object's keys in the order they appear.
func orderedKeys(obj json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	if keys == nil {
		var m map[string]any
		json.Unmarshal(obj, &m)
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	}
	return keys
}

// pointerToken escapes a property name as a JSON Pointer token.
func pointerToken(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

// RequiredWord is "required" or "optional".
func (f Field) RequiredWord() string {
	if f.Required {
		return "required"
	}
	return "optional"
}

// Describe returns the field's description and constraints on one line:
// "The text to find. (minLength=1, maxLength=100)".
func (f Field) Describe() string {
	s := strings.Join(strings.Fields(f.Doc), " ")
	if len(f.Rules) > 0 {
		if s != "" {
			s += " "
		}
		s += "(" + strings.Join(f.Rules, ", ") + ")"
	}
	return s
}

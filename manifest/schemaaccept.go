package manifest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// schemaAccepts reports whether doc, decoded as for [schemaProblems],
// satisfies the embedded schema. It answers what the JSON Schema validator
// answers (FuzzSchemaAccepts compares them) without building error values
// and paths, a tenth of the validator's work: the validator runs only for a
// manifest this refuses, to word the problems. It reports false whenever
// it cannot tell.
func schemaAccepts(doc any) bool {
	n := acceptNode()
	return n != nil && n.accepts(doc)
}

// acceptNode compiles the embedded schema for schemaAccepts once; nil when
// the schema uses a keyword schemaAccepts does not know, and then every
// manifest goes to the validator.
var acceptNode = sync.OnceValue(func() *schemaNode {
	n, err := compileAccept(schemaJSON)
	if err != nil {
		return nil
	}
	return n
})

// schemaNode is one schema of the subset of draft 2020-12 the manifest
// schema uses; every check it holds applies.
type schemaNode struct {
	typ         string // "", "object", "array", "string" or "boolean"
	closed      bool   // additionalProperties: false
	required    []string
	requiredBit map[string]uint64 // required[i] → 1<<i
	properties  map[string]*schemaNode
	items       *schemaNode
	ref         **schemaNode      // resolved once every $defs entry is compiled
	pattern     *regexp.Regexp    // nil when match holds the pattern
	match       func([]byte) bool // pattern's hand-written form, if forms has it
	minLength   int               // -1: none
	enum        []string          // nil: none
}

func (n *schemaNode) accepts(v any) bool {
	if n.ref != nil && !(*n.ref).accepts(v) {
		return false
	}
	if n.enum != nil {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	switch n.typ {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for _, name := range n.required {
			if _, ok := obj[name]; !ok {
				return false
			}
		}
		for name, pv := range obj {
			p, ok := n.properties[name]
			if !ok {
				if n.closed {
					return false
				}
				continue
			}
			if !p.accepts(pv) {
				return false
			}
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return false
		}
		if n.items != nil {
			for _, item := range arr {
				if !n.items.accepts(item) {
					return false
				}
			}
		}
	case "string":
		s, ok := v.(string)
		if !ok || !n.acceptsString([]byte(s)) {
			return false
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return false
		}
	default:
		if s, ok := v.(string); ok && !n.acceptsString([]byte(s)) {
			return false
		}
	}
	return true
}

// acceptsString checks a string's value against n's enum, minLength and
// pattern.
func (n *schemaNode) acceptsString(s []byte) bool {
	if n.enum != nil && !slices.Contains(n.enum, string(s)) {
		return false
	}
	if n.minLength >= 0 && utf8.RuneCount(s) < n.minLength {
		return false
	}
	if n.match != nil {
		return n.match(s)
	}
	return n.pattern == nil || n.pattern.Match(s)
}

// schemaAcceptsJSON is schemaAccepts of data, one JSON value, read as it
// is walked, without building the document: decoding a manifest takes
// only its typed decode when this accepts. A repeated key has each of its
// values checked, stricter than the validator, which sees the last; a
// key with escapes is decoded as decodeDoc does. Like schemaAccepts, it
// reports false whenever it cannot tell, and then Decode takes the long
// way.
func schemaAcceptsJSON(data []byte) bool {
	n := acceptNode()
	if n == nil {
		return false
	}
	d := docDecoder{data: data}
	if !d.accept(n, 0) {
		return false
	}
	d.space()
	return d.pos == len(data)
}

// accept walks one value, checking it against n; nil accepts any value.
func (d *docDecoder) accept(n *schemaNode, depth int) bool {
	for n != nil && n.ref != nil && n.typ == "" && n.enum == nil {
		n = *n.ref
	}
	if n != nil && n.ref != nil {
		start := d.pos
		if !d.accept(*n.ref, depth) {
			return false
		}
		d.pos = start
		rest := *n
		rest.ref = nil
		n = &rest
	}
	d.space()
	if d.pos >= len(d.data) || depth > maxDocDepth {
		return false
	}
	typ := ""
	if n != nil {
		typ = n.typ
	}
	c := d.data[d.pos]
	if n != nil && n.enum != nil && c != '"' {
		return false
	}
	switch {
	case c == '{':
		if typ == "" {
			n = nil
		} else if typ != "object" {
			return false
		}
		return d.acceptObject(n, depth+1)
	case c == '[':
		var items *schemaNode
		if typ == "array" {
			items = n.items
		} else if typ != "" {
			return false
		}
		return d.acceptArray(items, depth+1)
	case c == '"':
		if typ != "" && typ != "string" {
			return false
		}
		s, ok := d.strBytes()
		return ok && (n == nil || n.acceptsString(s))
	case c == 't' || c == 'f':
		if typ != "" && typ != "boolean" {
			return false
		}
		if c == 't' {
			return d.literal("true")
		}
		return d.literal("false")
	case c == 'n':
		return typ == "" && d.literal("null")
	default:
		return typ == "" && d.skipNumber()
	}
}

// acceptObject walks an object, checking it against n, of type object or
// nil.
func (d *docDecoder) acceptObject(n *schemaNode, depth int) bool {
	d.pos++ // '{'
	var seen uint64
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return n == nil || len(n.required) == 0
	}
	for {
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return false
		}
		key, ok := d.strBytes()
		if !ok {
			return false
		}
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return false
		}
		d.pos++
		var p *schemaNode
		if n != nil {
			var known bool
			p, known = n.properties[string(key)]
			if !known && n.closed {
				return false
			}
			seen |= n.requiredBit[string(key)]
		}
		if !d.accept(p, depth) {
			return false
		}
		end, ok := d.separator('}')
		if !ok {
			return false
		}
		if end {
			return n == nil || seen == 1<<len(n.required)-1
		}
	}
}

// acceptArray walks an array, checking each item against items.
func (d *docDecoder) acceptArray(items *schemaNode, depth int) bool {
	d.pos++ // '['
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return true
	}
	for {
		if !d.accept(items, depth) {
			return false
		}
		end, ok := d.separator(']')
		if !ok {
			return false
		}
		if end {
			return true
		}
	}
}

// strBytes reads a string as strValue does, without a copy when it is
// plain ASCII.
func (d *docDecoder) strBytes() ([]byte, bool) {
	for i := d.pos + 1; i < len(d.data); i++ {
		switch c := d.data[i]; {
		case c == '"':
			s := d.data[d.pos+1 : i]
			d.pos = i + 1
			return s, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			s, ok := d.strValue()
			return []byte(s), ok
		}
	}
	return nil, false
}

// compileAccept compiles a schema for schemaAccepts. It refuses any keyword
// or form outside the subset schemaNode checks, so that a schema growing a
// new rule is never half checked.
func compileAccept(data []byte) (*schemaNode, error) {
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	c := acceptCompiler{defs: map[string]**schemaNode{}}
	if defs, ok := root["$defs"]; ok {
		obj, ok := defs.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$defs: not an object")
		}
		for name := range obj {
			c.defs[name] = new(*schemaNode)
		}
		for name, def := range obj {
			n, err := c.compile(def, "$defs/"+name)
			if err != nil {
				return nil, err
			}
			*c.defs[name] = n
		}
	}
	return c.compile(root, "")
}

type acceptCompiler struct {
	defs map[string]**schemaNode
}

func (c *acceptCompiler) compile(v any, at string) (*schemaNode, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: schema is not an object", at)
	}
	n := &schemaNode{minLength: -1}
	for key, val := range obj {
		var err error
		switch key {
		case "$schema", "$id", "$defs", "title", "description":
			// Annotations, or handled by compileAccept.
		case "type":
			n.typ, _ = val.(string)
			switch n.typ {
			case "object", "array", "string", "boolean":
			default:
				err = fmt.Errorf("type %v not supported", val)
			}
		case "additionalProperties":
			if b, ok := val.(bool); !ok || b {
				err = fmt.Errorf("additionalProperties %v not supported", val)
			}
			n.closed = true
		case "required":
			list, _ := val.([]any)
			for _, r := range list {
				s, ok := r.(string)
				if !ok {
					err = fmt.Errorf("required %v not supported", val)
				}
				n.required = append(n.required, s)
			}
			if len(n.required) > 64 {
				err = fmt.Errorf("more than 64 required properties not supported")
			}
			n.requiredBit = map[string]uint64{}
			for i, r := range n.required {
				n.requiredBit[r] |= 1 << i
			}
		case "properties":
			props, ok := val.(map[string]any)
			if !ok {
				err = fmt.Errorf("properties is not an object")
				break
			}
			n.properties = map[string]*schemaNode{}
			for name, p := range props {
				if n.properties[name], err = c.compile(p, at+"/properties/"+name); err != nil {
					return nil, err
				}
			}
		case "items":
			n.items, err = c.compile(val, at+"/items")
		case "$ref":
			s, _ := val.(string)
			def, ok := c.defs[strings.TrimPrefix(s, "#/$defs/")]
			if !ok || !strings.HasPrefix(s, "#/$defs/") {
				err = fmt.Errorf("$ref %v not supported", val)
			}
			n.ref = def
		case "pattern":
			// A pattern with a hand-written form (TestForms) compiles no
			// regexp: they were most of the compile, at every host's start.
			s, _ := val.(string)
			if f, ok := forms[s]; ok {
				n.match = f.bytes
			} else {
				n.pattern, err = regexp.Compile(s)
			}
		case "minLength":
			f, ok := val.(float64)
			if !ok || f < 0 || f != float64(int(f)) {
				err = fmt.Errorf("minLength %v not supported", val)
			}
			n.minLength = int(f)
		case "enum":
			list, _ := val.([]any)
			n.enum = []string{}
			for _, e := range list {
				s, ok := e.(string)
				if !ok {
					err = fmt.Errorf("enum %v not supported", val)
				}
				n.enum = append(n.enum, s)
			}
		default:
			err = fmt.Errorf("keyword %s not supported", key)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", at, err)
		}
	}
	// accepts applies each keyword under its type only.
	objectOnly := n.closed || n.required != nil || n.properties != nil
	stringOnly := n.pattern != nil || n.match != nil || n.minLength >= 0
	if objectOnly && n.typ != "object" || n.items != nil && n.typ != "array" || stringOnly && n.typ != "string" {
		return nil, fmt.Errorf("%s: keywords of another type than %q not supported", at, n.typ)
	}
	return n, nil
}

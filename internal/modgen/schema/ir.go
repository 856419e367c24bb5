package schema

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
)

// Draft is the JSON Schema dialect every root schema declares.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// Schema is one JSON Schema node. Numbers are JSON number literals; an
// empty node accepts any JSON value.
type Schema struct {
	// Ref is "#/$defs/<name>" for a named struct type.
	Ref         string
	Description string
	// Type is the JSON type: "object", "array", "string", "integer",
	// "number" or "boolean"; empty accepts any type.
	Type string
	// Nullable adds null to the accepted values.
	Nullable bool
	// NullBranch writes a nullable node as anyOf [{"type":"null"}, node]
	// rather than with a type array, so that every "type" is one type.
	NullBranch bool
	// Enum lists the accepted values as JSON literals.
	Enum   []string
	Format string
	// MCPHeader is the x-mcp-header keyword: the name of the HTTP header in
	// which MCP clients mirror the value (SEP-2243).
	MCPHeader       string
	ContentEncoding string
	Pattern         string
	MinLength       *uint64
	MaxLength       *uint64
	Minimum         string
	ExclusiveMin    string
	Maximum         string
	ExclusiveMax    string
	MultipleOf      string
	Items           *Schema
	MinItems        *uint64
	MaxItems        *uint64
	UniqueItems     bool
	// Properties are a struct's fields in declaration order.
	Properties []*Property
	Required   []string
	// Closed forbids properties not listed (additionalProperties: false).
	Closed bool
	// Values is a map's value schema (additionalProperties).
	Values *Schema
	// KeyPattern and KeyFormat constrain a map's keys (propertyNames).
	KeyPattern, KeyFormat string
	// MinProps and MaxProps bound a map's key count.
	MinProps, MaxProps *uint64
	Default            string
	// Defs are the definitions a root schema refers to, by name.
	Defs map[string]*Schema
	// Root marks the top-level schema, which declares the dialect.
	Root bool
	// Anchor is the $anchor keyword: a name for the schema within its root
	// document.
	Anchor string
	// AnyRequired are an object's groups of properties of which at least
	// one must be present: allOf, one anyOf of required per group.
	AnyRequired [][]string
	// Cond is an object's if/then/else on one property's value.
	Cond *Cond
	// GoTime marks a time.Time: beyond its format, the validator accepts
	// only what Go's time decoding takes. It is not part of the JSON.
	GoTime bool

	enumFromTag bool
}

// Cond requires properties depending on one property's value: when
// property If is present and equals IfConst (a JSON literal), the
// properties Then are required, otherwise the properties Else.
type Cond struct {
	If, IfConst string
	Then, Else  []string
}

// Property is one property of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

// DefName returns the $defs name a Ref points to.
func (s *Schema) DefName() string {
	const prefix = "#/$defs/"
	if len(s.Ref) > len(prefix) {
		return s.Ref[len(prefix):]
	}
	return ""
}

// MarshalJSON writes the schema with keys in a fixed order.
func (s *Schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	s.write(&b)
	return b.Bytes(), nil
}

type objWriter struct {
	b     *bytes.Buffer
	first bool
}

func (w *objWriter) key(k string) {
	if !w.first {
		w.b.WriteByte(',')
	}
	w.first = false
	w.b.WriteString(strconv.Quote(k))
	w.b.WriteByte(':')
}

func (w *objWriter) str(k, v string) {
	if v == "" {
		return
	}
	w.key(k)
	q, _ := json.Marshal(v)
	w.b.Write(q)
}

func (w *objWriter) raw(k, v string) {
	if v == "" {
		return
	}
	w.key(k)
	w.b.WriteString(v)
}

func (w *objWriter) uint(k string, v *uint64) {
	if v == nil {
		return
	}
	w.key(k)
	w.b.WriteString(strconv.FormatUint(*v, 10))
}

func (s *Schema) write(b *bytes.Buffer) {
	b.WriteByte('{')
	w := &objWriter{b: b, first: true}
	if s.Root {
		w.str("$schema", Draft)
	}
	w.str("$anchor", s.Anchor)
	w.str("description", s.Description)
	if s.Nullable && (s.Ref != "" || len(s.Enum) > 0 || s.NullBranch) {
		w.key("anyOf")
		b.WriteString(`[{"type":"null"},`)
		inner := *s
		inner.Nullable, inner.NullBranch, inner.Description, inner.Default, inner.Root, inner.Defs = false, false, "", "", false, nil
		inner.Anchor = ""
		inner.write(b)
		b.WriteByte(']')
	} else {
		s.writeBody(w)
	}
	w.raw("default", s.Default)
	if len(s.Defs) > 0 {
		w.key("$defs")
		names := make([]string, 0, len(s.Defs))
		for n := range s.Defs {
			names = append(names, n)
		}
		sort.Strings(names)
		b.WriteByte('{')
		for i, n := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(n))
			b.WriteByte(':')
			s.Defs[n].write(b)
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
}

func (s *Schema) writeBody(w *objWriter) {
	b := w.b
	w.str("$ref", s.Ref)
	if s.Type != "" {
		if s.Nullable {
			w.key("type")
			b.WriteString(`[` + strconv.Quote(s.Type) + `,"null"]`)
		} else {
			w.str("type", s.Type)
		}
	}
	if len(s.Enum) > 0 {
		w.key("enum")
		b.WriteByte('[')
		for i, e := range s.Enum {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(e)
		}
		b.WriteByte(']')
	}
	w.str("format", s.Format)
	w.str("x-mcp-header", s.MCPHeader)
	w.str("contentEncoding", s.ContentEncoding)
	w.str("pattern", s.Pattern)
	w.uint("minLength", s.MinLength)
	w.uint("maxLength", s.MaxLength)
	w.raw("minimum", s.Minimum)
	w.raw("exclusiveMinimum", s.ExclusiveMin)
	w.raw("maximum", s.Maximum)
	w.raw("exclusiveMaximum", s.ExclusiveMax)
	w.raw("multipleOf", s.MultipleOf)
	if s.Items != nil {
		w.key("items")
		s.Items.write(b)
	}
	w.uint("minItems", s.MinItems)
	w.uint("maxItems", s.MaxItems)
	if s.UniqueItems {
		w.raw("uniqueItems", "true")
	}
	if s.Type == "object" && s.Values == nil {
		w.key("properties")
		b.WriteByte('{')
		for i, p := range s.Properties {
			if i > 0 {
				b.WriteByte(',')
			}
			q, _ := json.Marshal(p.Name)
			b.Write(q)
			b.WriteByte(':')
			p.Schema.write(b)
		}
		b.WriteByte('}')
	}
	if len(s.Required) > 0 {
		w.key("required")
		q, _ := json.Marshal(s.Required)
		b.Write(q)
	}
	if s.Closed {
		w.raw("additionalProperties", "false")
	} else if s.Values != nil {
		w.key("additionalProperties")
		s.Values.write(b)
	}
	if s.KeyPattern != "" {
		w.key("propertyNames")
		b.WriteByte('{')
		names := &objWriter{b: b, first: true}
		names.str("pattern", s.KeyPattern)
		names.str("format", s.KeyFormat)
		b.WriteByte('}')
	}
	w.uint("minProperties", s.MinProps)
	w.uint("maxProperties", s.MaxProps)
	s.writeConditions(w)
}

// writeConditions writes an object's allOf of anyOf groups and its
// if/then/else.
func (s *Schema) writeConditions(w *objWriter) {
	b := w.b
	required := func(names []string) {
		q, _ := json.Marshal(names)
		b.WriteString(`{"required":`)
		b.Write(q)
		b.WriteByte('}')
	}
	if len(s.AnyRequired) > 0 {
		w.key("allOf")
		b.WriteByte('[')
		for i, group := range s.AnyRequired {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"anyOf":[`)
			for j, name := range group {
				if j > 0 {
					b.WriteByte(',')
				}
				required([]string{name})
			}
			b.WriteString(`]}`)
		}
		b.WriteByte(']')
	}
	if c := s.Cond; c != nil {
		w.key("if")
		name, _ := json.Marshal(c.If)
		b.WriteString(`{"properties":{`)
		b.Write(name)
		b.WriteString(`:{"const":` + c.IfConst + `}},"required":[`)
		b.Write(name)
		b.WriteString(`]}`)
		if len(c.Then) > 0 {
			w.key("then")
			required(c.Then)
		}
		if len(c.Else) > 0 {
			w.key("else")
			required(c.Else)
		}
	}
}

// Indent returns the schema as indented JSON with a trailing newline.
func (s *Schema) Indent() []byte {
	raw, _ := s.MarshalJSON()
	var out bytes.Buffer
	_ = json.Indent(&out, raw, "", "  ")
	out.WriteByte('\n')
	return out.Bytes()
}

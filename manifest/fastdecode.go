package manifest

import (
	"bytes"
	"encoding/json"
	"slices"
	"unsafe"
)

// decodeFast decodes data, one JSON object, into m as json.Unmarshal does,
// in one pass and without reflection for the fields every manifest has
// (the mod's, its tools'). It knows fields by their exact names only and
// reports false at anything else: a key it does not know or that repeats,
// a null where it wants a string, list or object, a value of another type,
// JSON that is not well formed. m is then partly filled, and the caller
// decodes with encoding/json instead. The fields fewer manifests have
// (commands, resources, permissions, ...) are handed to encoding/json one
// by one. FuzzDecodeFast compares it with json.Unmarshal.
//
// With n, the compiled schema (acceptNode), it also checks each value
// against the schema as it reads it, and reports true only for what
// schemaAcceptsJSON accepts (FuzzDecodeOneWalk): Decode then walks a
// manifest once, where the check's walk went before the decode's. A nil
// n checks nothing.
func decodeFast(data []byte, m *Manifest, n *schemaNode) bool {
	return decodeFastOwned(data, m, n, false)
}

// decodeFastOwned is decodeFast; with owned, raw values are slices of
// data itself (decodeOwned).
func decodeFastOwned(data []byte, m *Manifest, n *schemaNode, owned bool) bool {
	d := fastDecoder{docDecoder: docDecoder{data: data}}
	if owned {
		d.own = data
	}
	if !d.manifest(m, n) {
		return false
	}
	d.space()
	return d.pos == len(data)
}

type fastDecoder struct {
	docDecoder
	// own is a copy of data, made at the first raw value, or data itself
	// when the caller hands it over: raw values are slices of it, capped at
	// their ends, not an allocation each.
	own []byte
	// text holds the bytes of the strings read: each string is a view of
	// its part, and text is only appended to, never written over, so
	// the strings cannot change. One allocation for many strings.
	text []byte
	// depth is how many objects and arrays enclose the value read, the
	// depth schemaAcceptsJSON checks it at.
	depth int
	// accepted holds the first nAccepted raw objects this decode checked
	// and accepted, at most maxAccepted, each with its schema and depth.
	accepted  [maxAccepted]acceptedRaw
	nAccepted int
}

// acceptedRaw is an object raw read and accept took: the same bytes at
// the same depth against the same schema are taken again without a
// second walk. An object's walk reads its bytes up to its closing brace
// and nothing past it, so its verdict is theirs: a mod's tools often
// share one input schema, and their schemas are most of its manifest.
type acceptedRaw struct {
	n     *schemaNode
	depth int
	value []byte
}

// maxAccepted bounds fastDecoder.accepted.
const maxAccepted = 8

// schemaOf follows n's references, as accept does; ok is false for a
// reference beside other keywords, which accept checks twice and the fast
// decode leaves to it.
func schemaOf(n *schemaNode) (_ *schemaNode, ok bool) {
	for n != nil && n.ref != nil && n.typ == "" && n.enum == nil {
		n = *n.ref
	}
	return n, n == nil || n.ref == nil
}

// typed resolves n for a value of JSON type typ other than a string, as
// accept does: nil when it checks nothing more, ok false when it refuses
// the type.
func typed(n *schemaNode, typ string) (_ *schemaNode, ok bool) {
	n, ok = schemaOf(n)
	switch {
	case !ok:
		return nil, false
	case n == nil:
		return nil, true
	case n.enum != nil || n.typ != "" && n.typ != typ:
		return nil, false
	case n.typ == "":
		return nil, true
	}
	return n, true
}

// object walks an object, calling field with each key once its ':' is
// read, and the key's schema; field reads the value and returns the key's
// bit, 0 for a key it does not know. A repeated key, an unknown key, or a
// failed read stops the walk. n is the object's schema: it checks the
// object's keys, as acceptObject does.
func (d *fastDecoder) object(n *schemaNode, field func(key []byte, p *schemaNode) uint64) bool {
	n, ok := typed(n, "object")
	if !ok || !d.next('{') {
		return false
	}
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return n == nil || len(n.required) == 0
	}
	d.depth++
	var seen, required uint64
	for {
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return false
		}
		key, ok := d.strBytes()
		if !ok || !d.next(':') {
			return false
		}
		var p *schemaNode
		if n != nil {
			var known bool
			if p, known = n.properties[string(key)]; !known && n.closed {
				return false
			}
			required |= n.requiredBit[string(key)]
		}
		bit := field(key, p)
		if bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
		end, ok := d.separator('}')
		if !ok {
			return false
		}
		if end {
			d.depth--
			return n == nil || required == 1<<len(n.required)-1
		}
	}
}

// array walks an array, calling item for each element with the schema
// of the array's items (n's); item reads it.
func (d *fastDecoder) array(n *schemaNode, item func(items *schemaNode) bool) bool {
	n, ok := typed(n, "array")
	if !ok || !d.next('[') {
		return false
	}
	var items *schemaNode
	if n != nil {
		items = n.items
	}
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return true
	}
	d.depth++
	for {
		if !item(items) {
			return false
		}
		end, ok := d.separator(']')
		if !ok {
			return false
		}
		if end {
			d.depth--
			return true
		}
	}
}

// next moves past white space and c, and reports whether c was there.
func (d *fastDecoder) next(c byte) bool {
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != c {
		return false
	}
	d.pos++
	return true
}

// str reads a string into dst, checking it against n.
func (d *fastDecoder) str(dst *string, n *schemaNode) bool {
	n, ok := schemaOf(n)
	if !ok || n != nil && n.typ != "" && n.typ != "string" {
		return false
	}
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return false
	}
	s, ok := d.strBytes()
	if !ok || n != nil && !n.acceptsString(s) {
		return false
	}
	*dst = d.string(s)
	return true
}

// textChunk is the least text allocates at a time.
const textChunk = 512

// string returns a string of b's bytes, copied into d.text.
func (d *fastDecoder) string(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(d.text)-len(d.text) < len(b) {
		// A new chunk: the strings of the old one keep it.
		d.text = make([]byte, 0, max(len(b), textChunk))
	}
	start := len(d.text)
	d.text = append(d.text, b...)
	return unsafe.String(&d.text[start], len(b))
}

// strs reads an array of strings; an empty array is an empty list, not nil.
func (d *fastDecoder) strs(dst *[]string, n *schemaNode) bool {
	list := []string{}
	ok := d.array(n, func(items *schemaNode) bool {
		var s string
		if !d.str(&s, items) {
			return false
		}
		list = append(list, s)
		return true
	})
	*dst = list
	return ok
}

func (d *fastDecoder) boolean(dst *bool, n *schemaNode) bool {
	if _, ok := typed(n, "boolean"); !ok {
		return false
	}
	d.space()
	switch {
	case d.literal("true"):
		*dst = true
	case d.literal("false"):
		*dst = false
	default:
		return false
	}
	return true
}

// skip moves past one value, checking it against n, and returns where it
// starts, after white space.
func (d *fastDecoder) skip(n *schemaNode) (int, bool) {
	d.space()
	start := d.pos
	return start, d.accept(n, d.depth)
}

// skipObjectSeen moves past an object raw accepted before in this decode
// (accepted), its bytes at the same depth against the same schema n, and
// returns where it starts; ok is false for any other value, which it
// leaves unread.
func (d *fastDecoder) skipObjectSeen(n *schemaNode) (start int, ok bool) {
	d.space()
	rest := d.data[d.pos:]
	for _, a := range d.accepted[:d.nAccepted] {
		if a.n == n && a.depth == d.depth && bytes.HasPrefix(rest, a.value) {
			start = d.pos
			d.pos += len(a.value)
			return start, true
		}
	}
	return 0, false
}

// raw reads any value into dst, a copy of its bytes, as
// json.RawMessage's UnmarshalJSON keeps it. The copy's capacity ends with
// it, so that appending to it never writes over what follows.
func (d *fastDecoder) raw(dst *json.RawMessage, n *schemaNode) bool {
	start, ok := d.skipObjectSeen(n)
	if !ok {
		start, ok = d.skip(n)
		if !ok {
			return false
		}
		if d.data[start] == '{' && d.nAccepted < maxAccepted {
			d.accepted[d.nAccepted] = acceptedRaw{n, d.depth, d.data[start:d.pos]}
			d.nAccepted++
		}
	}
	if d.own == nil {
		d.own = bytes.Clone(d.data)
	}
	*dst = d.own[start:d.pos:d.pos]
	return true
}

// std hands one value to encoding/json.
func (d *fastDecoder) std(dst any, n *schemaNode) bool {
	start, ok := d.skip(n)
	return ok && json.Unmarshal(d.data[start:d.pos], dst) == nil
}

// bitIf turns a read's outcome into the bit object wants.
func bitIf(read bool, bit uint64) uint64 {
	if !read {
		return 0
	}
	return bit
}

func (d *fastDecoder) manifest(m *Manifest, n *schemaNode) bool {
	return d.object(n, func(key []byte, p *schemaNode) uint64 {
		switch string(key) {
		case "formatVersion":
			return bitIf(d.str(&m.FormatVersion, p), 1<<0)
		case "id":
			return bitIf(d.str(&m.ID, p), 1<<1)
		case "displayName":
			return bitIf(d.str(&m.DisplayName, p), 1<<2)
		case "description":
			return bitIf(d.str(&m.Description, p), 1<<3)
		case "icons":
			return bitIf(d.icons(&m.Icons, p), 1<<4)
		case "goPackage":
			return bitIf(d.str(&m.GoPackage, p), 1<<5)
		case "sourceHash":
			return bitIf(d.str(&m.SourceHash, p), 1<<6)
		case "tools":
			return bitIf(d.tools(&m.Tools, p), 1<<7)
		case "commands":
			return bitIf(d.std(&m.Commands, p), 1<<8)
		case "slashCommands":
			return bitIf(d.std(&m.SlashCommands, p), 1<<9)
		case "resources":
			return bitIf(d.std(&m.Resources, p), 1<<10)
		case "resourceTemplates":
			return bitIf(d.std(&m.ResourceTemplates, p), 1<<11)
		case "hooks":
			return bitIf(d.std(&m.Hooks, p), 1<<12)
		case "agents":
			return bitIf(d.std(&m.Agents, p), 1<<13)
		case "clientActions":
			return bitIf(d.std(&m.ClientActions, p), 1<<14)
		case "permissions":
			return bitIf(d.std(&m.Permissions, p), 1<<15)
		}
		return 0
	})
}

func (d *fastDecoder) tools(dst *[]Tool, n *schemaNode) bool {
	// Read into a buffer on the stack, then copied once: growing the list
	// tool by tool copied its large elements again at each doubling.
	var first [8]Tool
	tools := first[:0]
	read := d.array(n, func(items *schemaNode) bool {
		tools = append(tools, Tool{})
		return d.tool(&tools[len(tools)-1], items)
	})
	*dst = slices.Clone(tools)
	return read
}

func (d *fastDecoder) tool(t *Tool, n *schemaNode) bool {
	return d.object(n, func(key []byte, p *schemaNode) uint64 {
		var s string
		switch string(key) {
		case "name":
			return bitIf(d.str(&t.Name, p), 1<<0)
		case "title":
			return bitIf(d.str(&t.Title, p), 1<<1)
		case "description":
			return bitIf(d.str(&t.Description, p), 1<<2)
		case "activity":
			return bitIf(d.str(&t.Activity, p), 1<<3)
		case "icons":
			return bitIf(d.icons(&t.Icons, p), 1<<4)
		case "kind":
			read := d.str(&s, p)
			t.Kind = ToolKind(s)
			return bitIf(read, 1<<5)
		case "inputSchema":
			return bitIf(d.raw(&t.InputSchema, p), 1<<6)
		case "resultSchema":
			return bitIf(d.raw(&t.ResultSchema, p), 1<<7)
		case "hasView":
			return bitIf(d.boolean(&t.HasView, p), 1<<8)
		case "annotations":
			t.Annotations = new(Annotations)
			return bitIf(d.annotations(t.Annotations, p), 1<<9)
		case "approval":
			t.Approval = new(Approval)
			return bitIf(d.approval(t.Approval, p), 1<<10)
		case "clientActions":
			return bitIf(d.strs(&t.ClientActions, p), 1<<11)
		case "runs":
			read := d.str(&s, p)
			t.Runs = Runs(s)
			return bitIf(read, 1<<12)
		case "task":
			read := d.str(&s, p)
			t.Task = TaskSupport(s)
			return bitIf(read, 1<<13)
		case "scopes":
			return bitIf(d.strs(&t.Scopes, p), 1<<14)
		}
		return 0
	})
}

func (d *fastDecoder) annotations(a *Annotations, n *schemaNode) bool {
	return d.object(n, func(key []byte, p *schemaNode) uint64 {
		switch string(key) {
		case "readOnly":
			return bitIf(d.boolean(&a.ReadOnly, p), 1<<0)
		case "destructive":
			return bitIf(d.boolean(&a.Destructive, p), 1<<1)
		case "idempotent":
			return bitIf(d.boolean(&a.Idempotent, p), 1<<2)
		case "openWorld":
			return bitIf(d.boolean(&a.OpenWorld, p), 1<<3)
		}
		return 0
	})
}

func (d *fastDecoder) approval(a *Approval, n *schemaNode) bool {
	return d.object(n, func(key []byte, p *schemaNode) uint64 {
		var s string
		switch string(key) {
		case "when":
			read := d.str(&s, p)
			a.When = ApprovalWhen(s)
			return bitIf(read, 1<<0)
		case "reason":
			return bitIf(d.str(&a.Reason, p), 1<<1)
		}
		return 0
	})
}

func (d *fastDecoder) icons(dst *[]Icon, n *schemaNode) bool {
	icons := []Icon{}
	read := d.array(n, func(items *schemaNode) bool {
		icons = append(icons, Icon{})
		ic := &icons[len(icons)-1]
		return d.object(items, func(key []byte, p *schemaNode) uint64 {
			switch string(key) {
			case "src":
				return bitIf(d.str(&ic.Src, p), 1<<0)
			case "mimeType":
				return bitIf(d.str(&ic.MIMEType, p), 1<<1)
			case "sizes":
				return bitIf(d.strs(&ic.Sizes, p), 1<<2)
			case "theme":
				return bitIf(d.str(&ic.Theme, p), 1<<3)
			}
			return 0
		})
	})
	*dst = icons
	return read
}

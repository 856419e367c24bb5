package manifest

import (
	"bytes"
	"encoding/json"
	"slices"
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
func decodeFast(data []byte, m *Manifest) bool {
	d := fastDecoder{docDecoder: docDecoder{data: data}}
	if !d.manifest(m) {
		return false
	}
	d.space()
	return d.pos == len(data)
}

type fastDecoder struct {
	docDecoder
	// own is a copy of data, made at the first raw value: raw values are
	// slices of it, capped at their ends, not an allocation each.
	own []byte
}

// object walks an object, calling field with each key once its ':' is
// read; field reads the value and returns the key's bit, 0 for a key it
// does not know. A repeated key, an unknown key, or a failed read stops
// the walk.
func (d *fastDecoder) object(field func(key []byte) uint64) bool {
	if !d.next('{') {
		return false
	}
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return true
	}
	var seen uint64
	for {
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return false
		}
		key, ok := d.strBytes()
		if !ok || !d.next(':') {
			return false
		}
		bit := field(key)
		if bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
		end, ok := d.separator('}')
		if !ok {
			return false
		}
		if end {
			return true
		}
	}
}

// array walks an array, calling item for each element; item reads it.
func (d *fastDecoder) array(item func() bool) bool {
	if !d.next('[') {
		return false
	}
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return true
	}
	for {
		if !item() {
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

// next moves past white space and c, and reports whether c was there.
func (d *fastDecoder) next(c byte) bool {
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != c {
		return false
	}
	d.pos++
	return true
}

// str reads a string into dst.
func (d *fastDecoder) str(dst *string) bool {
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return false
	}
	s, ok := d.strValue()
	*dst = s
	return ok
}

// strs reads an array of strings; an empty array is an empty list, not nil.
func (d *fastDecoder) strs(dst *[]string) bool {
	list := []string{}
	ok := d.array(func() bool {
		var s string
		if !d.str(&s) {
			return false
		}
		list = append(list, s)
		return true
	})
	*dst = list
	return ok
}

func (d *fastDecoder) boolean(dst *bool) bool {
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

// skip moves past one value and returns where it starts, after white
// space.
func (d *fastDecoder) skip() (int, bool) {
	d.space()
	start := d.pos
	return start, d.accept(nil, 1)
}

// raw reads any value into dst, a copy of its bytes, as
// json.RawMessage's UnmarshalJSON keeps it. The copy's capacity ends with
// it, so that appending to it never writes over what follows.
func (d *fastDecoder) raw(dst *json.RawMessage) bool {
	start, ok := d.skip()
	if !ok {
		return false
	}
	if d.own == nil {
		d.own = bytes.Clone(d.data)
	}
	*dst = d.own[start:d.pos:d.pos]
	return true
}

// std hands one value to encoding/json.
func (d *fastDecoder) std(dst any) bool {
	start, ok := d.skip()
	return ok && json.Unmarshal(d.data[start:d.pos], dst) == nil
}

// bitIf turns a read's outcome into the bit object wants.
func bitIf(read bool, bit uint64) uint64 {
	if !read {
		return 0
	}
	return bit
}

func (d *fastDecoder) manifest(m *Manifest) bool {
	return d.object(func(key []byte) uint64 {
		switch string(key) {
		case "formatVersion":
			return bitIf(d.str(&m.FormatVersion), 1<<0)
		case "id":
			return bitIf(d.str(&m.ID), 1<<1)
		case "displayName":
			return bitIf(d.str(&m.DisplayName), 1<<2)
		case "description":
			return bitIf(d.str(&m.Description), 1<<3)
		case "icons":
			return bitIf(d.icons(&m.Icons), 1<<4)
		case "goPackage":
			return bitIf(d.str(&m.GoPackage), 1<<5)
		case "sourceHash":
			return bitIf(d.str(&m.SourceHash), 1<<6)
		case "tools":
			return bitIf(d.tools(&m.Tools), 1<<7)
		case "commands":
			return bitIf(d.std(&m.Commands), 1<<8)
		case "slashCommands":
			return bitIf(d.std(&m.SlashCommands), 1<<9)
		case "resources":
			return bitIf(d.std(&m.Resources), 1<<10)
		case "resourceTemplates":
			return bitIf(d.std(&m.ResourceTemplates), 1<<11)
		case "hooks":
			return bitIf(d.std(&m.Hooks), 1<<12)
		case "agents":
			return bitIf(d.std(&m.Agents), 1<<13)
		case "clientActions":
			return bitIf(d.std(&m.ClientActions), 1<<14)
		case "permissions":
			return bitIf(d.std(&m.Permissions), 1<<15)
		}
		return 0
	})
}

func (d *fastDecoder) tools(dst *[]Tool) bool {
	// Read into a buffer on the stack, then copied once: growing the list
	// tool by tool copied its large elements again at each doubling.
	var first [8]Tool
	tools := first[:0]
	read := d.array(func() bool {
		tools = append(tools, Tool{})
		return d.tool(&tools[len(tools)-1])
	})
	*dst = slices.Clone(tools)
	return read
}

func (d *fastDecoder) tool(t *Tool) bool {
	return d.object(func(key []byte) uint64 {
		var s string
		switch string(key) {
		case "name":
			return bitIf(d.str(&t.Name), 1<<0)
		case "title":
			return bitIf(d.str(&t.Title), 1<<1)
		case "description":
			return bitIf(d.str(&t.Description), 1<<2)
		case "activity":
			return bitIf(d.str(&t.Activity), 1<<3)
		case "icons":
			return bitIf(d.icons(&t.Icons), 1<<4)
		case "kind":
			read := d.str(&s)
			t.Kind = ToolKind(s)
			return bitIf(read, 1<<5)
		case "inputSchema":
			return bitIf(d.raw(&t.InputSchema), 1<<6)
		case "resultSchema":
			return bitIf(d.raw(&t.ResultSchema), 1<<7)
		case "hasView":
			return bitIf(d.boolean(&t.HasView), 1<<8)
		case "annotations":
			t.Annotations = new(Annotations)
			return bitIf(d.annotations(t.Annotations), 1<<9)
		case "approval":
			t.Approval = new(Approval)
			return bitIf(d.approval(t.Approval), 1<<10)
		case "clientActions":
			return bitIf(d.strs(&t.ClientActions), 1<<11)
		case "runs":
			read := d.str(&s)
			t.Runs = Runs(s)
			return bitIf(read, 1<<12)
		case "task":
			read := d.str(&s)
			t.Task = TaskSupport(s)
			return bitIf(read, 1<<13)
		case "scopes":
			return bitIf(d.strs(&t.Scopes), 1<<14)
		}
		return 0
	})
}

func (d *fastDecoder) annotations(a *Annotations) bool {
	return d.object(func(key []byte) uint64 {
		switch string(key) {
		case "readOnly":
			return bitIf(d.boolean(&a.ReadOnly), 1<<0)
		case "destructive":
			return bitIf(d.boolean(&a.Destructive), 1<<1)
		case "idempotent":
			return bitIf(d.boolean(&a.Idempotent), 1<<2)
		case "openWorld":
			return bitIf(d.boolean(&a.OpenWorld), 1<<3)
		}
		return 0
	})
}

func (d *fastDecoder) approval(a *Approval) bool {
	return d.object(func(key []byte) uint64 {
		var s string
		switch string(key) {
		case "when":
			read := d.str(&s)
			a.When = ApprovalWhen(s)
			return bitIf(read, 1<<0)
		case "reason":
			return bitIf(d.str(&a.Reason), 1<<1)
		}
		return 0
	})
}

func (d *fastDecoder) icons(dst *[]Icon) bool {
	icons := []Icon{}
	read := d.array(func() bool {
		icons = append(icons, Icon{})
		ic := &icons[len(icons)-1]
		return d.object(func(key []byte) uint64 {
			switch string(key) {
			case "src":
				return bitIf(d.str(&ic.Src), 1<<0)
			case "mimeType":
				return bitIf(d.str(&ic.MIMEType), 1<<1)
			case "sizes":
				return bitIf(d.strs(&ic.Sizes), 1<<2)
			case "theme":
				return bitIf(d.str(&ic.Theme), 1<<3)
			}
			return 0
		})
	})
	*dst = icons
	return read
}

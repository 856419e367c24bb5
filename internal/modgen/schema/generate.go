package schema

import (
	"encoding/json"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math/big"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/modkit/modkit/internal/words"
)

// headerName is what x-mcp-header accepts: the end of an Mcp-Param-<name>
// HTTP header's name.
var headerName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*$`)

// Mode selects which side of the wire a schema describes.
type Mode int

const (
	// Input schemas describe what a tool accepts: slices and maps reject
	// null.
	Input Mode = iota
	// Output schemas describe what the sdk writes: nil slices and maps
	// encode as [] and {} (and a nil []byte as ""), so each has one type.
	Output
)

// Error is a problem with a type, at the position that uses it.
type Error struct {
	Pos token.Position
	Msg string
}

func (e Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Generator converts Go types to schemas. Use one per mode; it keeps the
// $defs names of all roots it converts consistent.
type Generator struct {
	// Fset resolves positions.
	Fset *token.FileSet
	// Docs supplies doc comments; nil means no descriptions from comments.
	Docs *Docs
	// Mode is Input or Output.
	Mode Mode
	// Module is the path of the mod's module: only named types declared in
	// it make enums of their typed constants. Empty means every package
	// outside the standard library.
	Module string

	defs    map[string]*def   // by type key
	anchors map[string]string // $anchor → the type key that has it
	names   map[string]string
	errs    []Error
	errSeen map[string]bool
	stack   map[string]bool // named non-struct types being converted
	field   string          // the field being converted, for errors
}

type def struct {
	name   string
	schema *Schema
}

// Errors returns the problems found so far, sorted by position.
func (g *Generator) Errors() []Error {
	sort.SliceStable(g.errs, func(i, j int) bool {
		a, b := g.errs[i].Pos, g.errs[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return g.errs
}

func (g *Generator) errorf(pos token.Pos, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if g.field != "" {
		msg = "field " + g.field + ": " + msg
	}
	e := Error{Pos: g.Fset.Position(pos), Msg: msg}
	if g.errSeen == nil {
		g.errSeen = map[string]bool{}
	}
	if k := e.Error(); !g.errSeen[k] {
		g.errSeen[k] = true
		g.errs = append(g.errs, e)
	}
}

func (g *Generator) init() {
	if g.defs == nil {
		g.defs = map[string]*def{}
		g.names = map[string]string{}
		g.stack = map[string]bool{}
	}
}

// Root returns the schema of t as a top-level document: t itself inline,
// with the $defs it reaches. pos is where t is used, for errors.
func (g *Generator) Root(t types.Type, pos token.Pos) *Schema {
	g.init()
	var s *Schema
	if st, ok := types.Unalias(t).Underlying().(*types.Struct); ok && !g.special(t) {
		s = g.object(t, st, pos)
		if n, ok := types.Unalias(t).(*types.Named); ok {
			if d, ok := g.defs[typeKey(t)]; ok && d.name != "" {
				// A recursive root is written once, in $defs; the root
				// refers to it and still says it is an object.
				s = &Schema{Type: "object", Ref: "#/$defs/" + d.name}
			} else {
				s.Description = g.Docs.At(n.Origin().Obj().Pos())
			}
		}
	} else {
		s = g.typeSchema(t, pos)
	}
	s.Root = true
	s.Defs = map[string]*Schema{}
	g.collect(s, s.Defs)
	return s
}

// RootDefName returns the $defs name g gives the named struct type t.
func (g *Generator) RootDefName(t types.Type) string {
	g.init()
	return g.defName(t)
}

// collect adds the definitions s refers to, transitively, to defs.
func (g *Generator) collect(s *Schema, defs map[string]*Schema) {
	if s == nil {
		return
	}
	if name := s.DefName(); name != "" {
		if _, ok := defs[name]; !ok {
			for _, d := range g.defs {
				if d.name == name {
					defs[name] = d.schema
					g.collect(d.schema, defs)
				}
			}
		}
	}
	g.collect(s.Items, defs)
	g.collect(s.Values, defs)
	for _, p := range s.Properties {
		g.collect(p.Schema, defs)
	}
}

func typeKey(t types.Type) string { return types.TypeString(t, nil) }

// special reports whether t has a wire form other than its structure.
func (g *Generator) special(t types.Type) bool {
	return isNamed(t, "time", "Time") || hasMethod(t, "MarshalJSON") || hasMethod(t, "UnmarshalJSON") ||
		hasMethod(t, "MarshalText") || hasMethod(t, "UnmarshalText")
}

func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// hasMethod reports whether t or *t has the exported method name.
func hasMethod(t types.Type, name string) bool {
	t = types.Unalias(t)
	if _, ok := t.Underlying().(*types.Interface); ok {
		return false
	}
	if _, ok := t.(*types.Pointer); !ok {
		t = types.NewPointer(t)
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	_, ok := obj.(*types.Func)
	return ok
}

// typeSchema returns a fresh schema node for t.
func (g *Generator) typeSchema(t types.Type, pos token.Pos) *Schema {
	t = types.Unalias(t)
	switch {
	case isNamed(t, "time", "Time"):
		return &Schema{Type: "string", Format: "date-time", Pattern: words.TimePattern, GoTime: true}
	case isNamed(t, "encoding/json", "RawMessage"):
		return &Schema{}
	case isNamed(t, "encoding/json", "Number"):
		return &Schema{Type: "number"}
	case isNamed(t, "time", "Duration"):
		return &Schema{Type: "integer", Format: "int64", Minimum: minInt64, Maximum: maxInt64, Description: durationDoc}
	}
	if p, ok := t.(*types.Pointer); ok {
		s := g.typeSchema(p.Elem(), pos)
		if s.Type != "" || s.Ref != "" || len(s.Enum) > 0 {
			s.Nullable = true
			// An output schema gives each node one type: null is a branch
			// of its own.
			s.NullBranch = g.Mode == Output
		}
		return s
	}
	if hasMethod(t, "MarshalJSON") || hasMethod(t, "UnmarshalJSON") {
		return &Schema{}
	}
	if hasMethod(t, "MarshalText") || hasMethod(t, "UnmarshalText") {
		return &Schema{Type: "string"}
	}
	named, _ := t.(*types.Named)
	switch u := t.Underlying().(type) {
	case *types.Basic:
		s := g.basic(u, pos, t)
		if s != nil && named != nil {
			g.enum(named, s)
		}
		if s == nil {
			return &Schema{}
		}
		return s
	case *types.Struct:
		if named == nil {
			return g.object(t, u, pos)
		}
		return g.ref(named, u, pos)
	case *types.Slice:
		if b, ok := types.Unalias(u.Elem()).Underlying().(*types.Basic); ok && b.Kind() == types.Byte &&
			!hasMethod(u.Elem(), "MarshalJSON") && !hasMethod(u.Elem(), "MarshalText") {
			return &Schema{Type: "string", ContentEncoding: "base64"}
		}
		return g.guard(named, pos, func() *Schema {
			return &Schema{Type: "array", Items: g.typeSchema(u.Elem(), pos)}
		})
	case *types.Array:
		return g.guard(named, pos, func() *Schema {
			n := uint64(u.Len())
			return &Schema{Type: "array", Items: g.typeSchema(u.Elem(), pos), MinItems: &n, MaxItems: ptr(n)}
		})
	case *types.Map:
		return g.guard(named, pos, func() *Schema {
			s := &Schema{Type: "object"}
			k := types.Unalias(u.Key())
			switch kb, _ := k.Underlying().(*types.Basic); {
			case kb != nil && kb.Info()&types.IsString != 0:
			case hasMethod(k, "MarshalText") || hasMethod(k, "UnmarshalText"):
			case kb != nil && kb.Info()&types.IsInteger != 0:
				s.KeyPattern = "^-?[0-9]+$"
				if kb.Info()&types.IsUnsigned != 0 {
					s.KeyPattern = "^[0-9]+$"
				}
				s.KeyFormat = goFormat(kb)
			default:
				g.errorf(pos, "map key type %s cannot be a JSON object key: use a string, integer or text-marshaling type", typeKey(u.Key()))
			}
			s.Values = g.typeSchema(u.Elem(), pos)
			return s
		})
	case *types.Interface:
		if u.Empty() {
			return &Schema{}
		}
		g.errorf(pos, "interface type %s cannot be decoded from JSON: use a concrete type, any or json.RawMessage", typeKey(t))
		return &Schema{}
	case *types.Chan, *types.Signature:
		g.errorf(pos, "type %s cannot be carried in JSON", typeKey(t))
		return &Schema{}
	case *types.TypeParam:
		g.errorf(pos, "type parameter %s has no schema: instantiate the generic type", typeKey(t))
		return &Schema{}
	}
	g.errorf(pos, "type %s cannot be carried in JSON", typeKey(t))
	return &Schema{}
}

func ptr(n uint64) *uint64 { return &n }

// guard converts a named non-struct composite type, refusing recursion that
// does not pass through a struct.
func (g *Generator) guard(named *types.Named, pos token.Pos, f func() *Schema) *Schema {
	if named == nil {
		return f()
	}
	k := typeKey(named)
	if g.stack[k] {
		g.errorf(pos, "recursive type %s must recurse through a struct to have a schema", k)
		return &Schema{}
	}
	g.stack[k] = true
	defer delete(g.stack, k)
	s := f()
	if s.Description == "" {
		s.Description = g.Docs.At(named.Origin().Obj().Pos())
	}
	return s
}

// durationDoc describes a time.Duration, whose wire form is an integer.
const durationDoc = "A duration, as an integer count of nanoseconds (1000000000 is one second)."

// Integer bounds by basic kind. 64-bit integers carry their format,
// int64 or uint64, as well: a client's validator that ignores formats
// still refuses what the Go type cannot hold by the bounds, and one that
// reads numbers as JavaScript does, which cannot hold these bounds
// exactly, has the format to go by.
var intBounds = map[types.BasicKind][2]string{
	types.Int:     {minInt64, maxInt64},
	types.Int64:   {minInt64, maxInt64},
	types.Int8:    {"-128", "127"},
	types.Int16:   {"-32768", "32767"},
	types.Int32:   {"-2147483648", "2147483647"},
	types.Uint:    {"0", maxUint64},
	types.Uint8:   {"0", "255"},
	types.Uint16:  {"0", "65535"},
	types.Uint32:  {"0", "4294967295"},
	types.Uint64:  {"0", maxUint64},
	types.Uintptr: {"0", maxUint64},
}

// The range of 64-bit integers.
const (
	minInt64  = "-9223372036854775808"
	maxInt64  = "9223372036854775807"
	maxUint64 = "18446744073709551615"
)

// goFormat is the format that holds a value to the range of its Go type,
// where the schema's bounds do not: a 64-bit integer, a 32-bit float, and
// every integer or float written as a string with ",string".
func goFormat(b *types.Basic) string {
	switch b.Kind() {
	case types.Int, types.Int64:
		return "int64"
	case types.Int8:
		return "int8"
	case types.Int16:
		return "int16"
	case types.Int32:
		return "int32"
	case types.Uint, types.Uint64, types.Uintptr:
		return "uint64"
	case types.Uint8:
		return "uint8"
	case types.Uint16:
		return "uint16"
	case types.Uint32:
		return "uint32"
	case types.Float32:
		return "float"
	case types.Float64:
		return "double"
	}
	return ""
}

func (g *Generator) basic(b *types.Basic, pos token.Pos, t types.Type) *Schema {
	switch {
	case b.Kind() == types.Bool:
		return &Schema{Type: "boolean"}
	case b.Kind() == types.String:
		return &Schema{Type: "string"}
	case b.Info()&types.IsInteger != 0:
		bounds := intBounds[b.Kind()]
		s := &Schema{Type: "integer", Minimum: bounds[0], Maximum: bounds[1]}
		if bounds[1] == maxInt64 || bounds[1] == maxUint64 {
			s.Format = goFormat(b)
		}
		return s
	case b.Kind() == types.Float32:
		return &Schema{Type: "number", Format: "float"}
	case b.Kind() == types.Float64:
		return &Schema{Type: "number"}
	}
	g.errorf(pos, "type %s cannot be carried in JSON", typeKey(t))
	return nil
}

// enum makes s an enum of the typed constants of named in its package.
func (g *Generator) enum(named *types.Named, s *Schema) {
	if obj := named.Obj(); obj.Pkg() != nil && g.own(obj.Pkg().Path()) {
		g.constants(named, s)
	}
}

// constants makes s an enum of the typed constants of named, whatever
// module declares it.
func (g *Generator) constants(named *types.Named, s *Schema) {
	obj := named.Obj()
	if obj.Pkg() == nil || (s.Type != "string" && s.Type != "integer") {
		return
	}
	scope := obj.Pkg().Scope()
	var consts []*types.Const
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if ok && types.Identical(c.Type(), named) {
			consts = append(consts, c)
		}
	}
	sort.SliceStable(consts, func(i, j int) bool {
		a, b := g.Fset.Position(consts[i].Pos()), g.Fset.Position(consts[j].Pos())
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	seen := map[string]bool{}
	for _, c := range consts {
		var lit string
		switch c.Val().Kind() {
		case constant.String:
			q, _ := json.Marshal(constant.StringVal(c.Val()))
			lit = string(q)
		case constant.Int:
			lit = c.Val().ExactString()
		default:
			continue
		}
		if !seen[lit] {
			seen[lit] = true
			s.Enum = append(s.Enum, lit)
		}
	}
	if len(s.Enum) > 0 {
		s.Minimum, s.Maximum, s.Format = "", "", ""
		if s.Description == "" {
			s.Description = g.Docs.At(obj.Pos())
		}
	}
}

// own reports whether the package at path belongs to the mod's module,
// whose named types may be enums.
func (g *Generator) own(path string) bool {
	if g.Module != "" {
		return path == g.Module || strings.HasPrefix(path, g.Module+"/")
	}
	first, _, _ := strings.Cut(path, "/")
	return strings.Contains(first, ".")
}

// ref returns a $ref to the definition of the named struct type, creating
// the definition on first use.
func (g *Generator) ref(named *types.Named, st *types.Struct, pos token.Pos) *Schema {
	k := typeKey(named)
	d, ok := g.defs[k]
	if !ok {
		d = &def{name: g.defName(named)}
		g.defs[k] = d
		d.schema = g.object(named, st, pos)
		d.schema.Description = g.Docs.At(named.Origin().Obj().Pos())
	}
	return &Schema{Ref: "#/$defs/" + d.name}
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// defName returns a unique $defs name for t: the type name, with type
// arguments joined by "-", qualified by package only on a clash.
func (g *Generator) defName(t types.Type) string {
	k := typeKey(t)
	if d, ok := g.defs[k]; ok && d.name != "" {
		return d.name
	}
	base := shortName(t, false)
	candidates := []string{base, shortName(t, true)}
	for _, c := range candidates {
		if owner, ok := g.names[c]; !ok || owner == k {
			g.names[c] = k
			return c
		}
	}
	for i := 2; ; i++ {
		c := candidates[1] + "-" + strconv.Itoa(i)
		if _, ok := g.names[c]; !ok {
			g.names[c] = k
			return c
		}
	}
}

func shortName(t types.Type, qualified bool) string {
	var b strings.Builder
	var walk func(t types.Type)
	walk = func(t types.Type) {
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			if qualified && t.Obj().Pkg() != nil {
				b.WriteString(t.Obj().Pkg().Name() + ".")
			}
			b.WriteString(t.Obj().Name())
			for a := range t.TypeArgs().Types() {
				b.WriteByte('-')
				walk(a)
			}
		case *types.Basic:
			b.WriteString(t.Name())
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			b.WriteString("list-")
			walk(t.Elem())
		case *types.Array:
			b.WriteString("array" + strconv.FormatInt(t.Len(), 10) + "-")
			walk(t.Elem())
		case *types.Map:
			b.WriteString("map-")
			walk(t.Key())
			b.WriteByte('-')
			walk(t.Elem())
		default:
			b.WriteString("type")
		}
	}
	walk(t)
	return unsafeName.ReplaceAllString(b.String(), "_")
}

// field is one JSON property of a struct, found as encoding/json finds it.
type field struct {
	name   string
	tagged bool
	index  []int
	v      *types.Var
	tag    string
	omit   bool // omitempty or omitzero
	quoted bool
	typ    types.Type
}

// fields lists the JSON properties of struct type t, promoting untagged
// embedded structs' fields by encoding/json's rules.
func fields(t types.Type) []field {
	type queued struct {
		typ   types.Type
		index []int
	}
	current := []queued{}
	next := []queued{{typ: t}}
	count, nextCount := map[string]int{}, map[string]int{}
	visited := map[string]bool{}
	var out []field
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[string]int{}
		for _, q := range current {
			qk := typeKey(q.typ)
			if visited[qk] {
				continue
			}
			visited[qk] = true
			st := types.Unalias(q.typ).Underlying().(*types.Struct)
			for i := 0; i < st.NumFields(); i++ {
				sf := st.Field(i)
				ft := types.Unalias(sf.Type())
				tag := reflect.StructTag(st.Tag(i))
				if sf.Embedded() {
					et := ft
					if p, ok := et.(*types.Pointer); ok {
						et = types.Unalias(p.Elem())
					}
					if !sf.Exported() && !isStruct(et) {
						continue
					}
				} else if !sf.Exported() {
					continue
				}
				jtag := tag.Get("json")
				if jtag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(jtag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(append([]int(nil), q.index...), i)
				target := ft
				if p, ok := target.(*types.Pointer); ok && !isNamedType(target) {
					target = types.Unalias(p.Elem())
				}
				if name != "" || !sf.Embedded() || !isStruct(target) {
					f := field{name: name, tagged: name != "", index: index, v: sf, tag: string(tag),
						typ: sf.Type()}
					if f.name == "" {
						f.name = sf.Name()
					}
					for o := range strings.SplitSeq(opts, ",") {
						switch o {
						case "omitempty", "omitzero":
							f.omit = true
						case "string":
							f.quoted = true
						}
					}
					out = append(out, f)
					if count[qk] > 1 {
						out = append(out, out[len(out)-1])
					}
					continue
				}
				tk := typeKey(target)
				nextCount[tk]++
				if nextCount[tk] == 1 {
					next = append(next, queued{typ: target, index: index})
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.name != b.name {
			return a.name < b.name
		}
		if len(a.index) != len(b.index) {
			return len(a.index) < len(b.index)
		}
		if a.tagged != b.tagged {
			return a.tagged
		}
		return lessIndex(a.index, b.index)
	})
	var kept []field
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].name == out[i].name {
			j++
		}
		if f, ok := dominant(out[i:j]); ok {
			kept = append(kept, f)
		}
		i = j
	}
	sort.SliceStable(kept, func(i, j int) bool { return lessIndex(kept[i].index, kept[j].index) })
	return kept
}

func dominant(fs []field) (field, bool) {
	if len(fs) > 1 && len(fs[0].index) == len(fs[1].index) && fs[0].tagged == fs[1].tagged {
		return field{}, false
	}
	return fs[0], true
}

func lessIndex(a, b []int) bool {
	for k := 0; k < len(a) && k < len(b); k++ {
		if a[k] != b[k] {
			return a[k] < b[k]
		}
	}
	return len(a) < len(b)
}

func isStruct(t types.Type) bool {
	_, ok := types.Unalias(t).Underlying().(*types.Struct)
	return ok
}

func isNamedType(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Named)
	return ok
}

func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c > 127):
			return false
		}
	}
	return true
}

// object returns the closed object schema of a struct type.
func (g *Generator) object(t types.Type, st *types.Struct, pos token.Pos) *Schema {
	s := &Schema{Type: "object", Closed: true}
	for _, f := range fields(t) {
		p := g.property(f)
		if p == nil {
			continue
		}
		s.Properties = append(s.Properties, &Property{Name: f.name, Schema: p.schema})
		if p.required {
			s.Required = append(s.Required, f.name)
		}
	}
	if s.Properties == nil {
		s.Properties = []*Property{}
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if raw, ok := reflect.StructTag(st.Tag(i)).Lookup("jsonschema"); ok && f.Name() == "_" {
			g.structTag(t, s, raw, f.Pos())
		}
	}
	return s
}

type prop struct {
	schema   *Schema
	required bool
}

func (g *Generator) property(f field) *prop {
	pos := f.v.Pos()
	outer := g.field
	g.field = f.v.Name()
	defer func() { g.field = outer }()
	s := g.typeSchema(f.typ, pos)
	_, isPtr := types.Unalias(f.typ).(*types.Pointer)
	required := !f.omit && !isPtr
	if f.quoted {
		g.quote(s, f, pos)
	}
	if doc := g.Docs.At(f.v.Origin().Pos()); doc != "" {
		if s.Description == durationDoc {
			doc += " " + durationDoc
		}
		s.Description = doc
	}
	if raw, ok := reflect.StructTag(f.tag).Lookup("jsonschema"); ok {
		tag, err := parseTag(raw)
		if err != nil {
			g.errorf(pos, "%v", err)
			return &prop{schema: s, required: required}
		}
		if tag.required {
			required = true
		}
		if tag.optional {
			required = false
		}
		if tag.enum {
			g.markedEnum(f, s, pos)
		}
		if tag.description != "" {
			s.Description = tag.description
		}
		for _, it := range tag.items {
			if err := apply(s, it); err != nil {
				g.errorf(pos, "%v", err)
			}
		}
		dropCoveredRange(s)
	}
	return &prop{schema: s, required: required}
}

// dropCoveredRange removes the format that holds a number to its Go
// type's range when the tags' bounds keep it inside a narrower range: an
// integer with no bounds of its own keeps its format with the type's.
func dropCoveredRange(s *Schema) {
	r, ok := goRange[s.Format]
	if !ok || s.Type != "integer" && s.Type != "number" {
		return
	}
	lo, hi := s.Minimum, s.Maximum
	if lo == "" {
		lo = s.ExclusiveMin
	}
	if hi == "" {
		hi = s.ExclusiveMax
	}
	if lo == "" || hi == "" {
		return
	}
	a, _ := new(big.Rat).SetString(lo)
	b, _ := new(big.Rat).SetString(hi)
	if a == nil || b == nil {
		return
	}
	whole := a.Cmp(r[0]) == 0 && b.Cmp(r[1]) == 0
	switch {
	case whole && len(s.Enum) > 0:
		// The enum's values say more than the type's bounds.
		s.Minimum, s.Maximum = "", ""
	case !whole && a.Cmp(r[0]) >= 0 && b.Cmp(r[1]) <= 0:
		s.Format = ""
	}
}

// goRange is the range of each format goFormat gives a number.
var goRange = map[string][2]*big.Rat{
	"int64":  {rat("-9223372036854775808"), rat("9223372036854775807")},
	"uint64": {rat("0"), rat("18446744073709551615")},
	"float":  {rat("-3.4028234663852886e38"), rat("3.4028234663852886e38")},
}

func rat(s string) *big.Rat {
	r, _ := new(big.Rat).SetString(s)
	return r
}

// markedEnum makes a field marked with the bare keyword enum an enum of
// its named type's typed constants, even a type from another module.
func (g *Generator) markedEnum(f field, s *Schema, pos token.Pos) {
	t := types.Unalias(f.typ)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	named, ok := t.(*types.Named)
	if ok && len(s.Enum) == 0 {
		g.constants(named, s)
	}
	if len(s.Enum) == 0 {
		g.errorf(pos, "the bare keyword enum wants a named string or integer type with typed constants, not %s", typeKey(f.typ))
	}
}

// quote applies encoding/json's ",string" option.
func (g *Generator) quote(s *Schema, f field, pos token.Pos) {
	t := types.Unalias(f.typ)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	b, _ := t.Underlying().(*types.Basic)
	switch {
	case s.Type == "integer" && b != nil:
		pattern := "^-?[0-9]+$"
		if b.Info()&types.IsUnsigned != 0 {
			pattern = "^[0-9]+$"
		}
		*s = Schema{Type: "string", Pattern: pattern, Format: goFormat(b), Nullable: s.Nullable, NullBranch: s.NullBranch}
	case s.Type == "number" && b != nil:
		*s = Schema{Type: "string", Pattern: `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`, Format: goFormat(b), Nullable: s.Nullable, NullBranch: s.NullBranch}
	case s.Type == "boolean":
		*s = Schema{Type: "string", Enum: []string{`"true"`, `"false"`}, Nullable: s.Nullable, NullBranch: s.NullBranch}
	default:
		g.errorf(pos, "the \",string\" option is supported on integer, number and boolean fields only")
	}
}

// apply sets one constraint from a jsonschema tag on s.
func apply(s *Schema, it tagItem) error {
	want := constraintKeys[it.key]
	jsonType := s.Type
	if jsonType == "integer" {
		jsonType = "number"
	}
	if want != "" && want != jsonType {
		have := s.Type
		switch {
		case s.Ref != "":
			have = "object"
		case have == "":
			have = "any JSON value"
		}
		if want == "object" {
			return fmt.Errorf("%s applies to maps, not %s values", it.key, have)
		}
		return fmt.Errorf("%s applies to %s values, not %s", it.key, kindWord(want), have)
	}
	switch it.key {
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		r, ok := new(big.Rat).SetString(it.value)
		if !ok || !isJSONNumber(it.value) {
			return fmt.Errorf("%s=%s: want a number", it.key, it.value)
		}
		if it.key == "multipleOf" && r.Sign() <= 0 {
			return fmt.Errorf("multipleOf=%s: want a number greater than 0", it.value)
		}
		switch it.key {
		case "minimum":
			s.Minimum = tighter(s.Minimum, it.value, 1)
		case "maximum":
			s.Maximum = tighter(s.Maximum, it.value, -1)
		case "exclusiveMinimum":
			s.ExclusiveMin = it.value
			if s.Minimum != "" && tighter(s.Minimum, it.value, 1) == it.value {
				s.Minimum = "" // the Go type's bound, which this one implies
			}
		case "exclusiveMaximum":
			s.ExclusiveMax = it.value
			if s.Maximum != "" && tighter(s.Maximum, it.value, -1) == it.value {
				s.Maximum = ""
			}
		case "multipleOf":
			s.MultipleOf = it.value
		}
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		if want == "object" && s.Values == nil {
			return fmt.Errorf("%s applies to maps, whose keys vary, not to structs", it.key)
		}
		n, err := strconv.ParseUint(it.value, 10, 63)
		if err != nil {
			return fmt.Errorf("%s=%s: want a non-negative integer", it.key, it.value)
		}
		switch it.key {
		case "minLength":
			s.MinLength = &n
		case "maxLength":
			s.MaxLength = &n
		case "minItems":
			s.MinItems = &n
		case "maxItems":
			s.MaxItems = &n
		case "minProperties":
			s.MinProps = &n
		case "maxProperties":
			s.MaxProps = &n
		}
	case "pattern":
		if _, err := regexp.Compile(it.value); err != nil {
			return fmt.Errorf("pattern %q: %v", it.value, err)
		}
		s.Pattern = it.value
	case "format":
		switch it.value {
		case "date-time", "date", "email", "uri", "uuid":
			s.Format = it.value
		default:
			return fmt.Errorf("format %q: want date-time, date, email, uri or uuid", it.value)
		}
	case "x-mcp-header":
		if !headerName.MatchString(it.value) {
			return fmt.Errorf("x-mcp-header=%s: want a header name of letters, digits and '-'", it.value)
		}
		switch s.Type {
		case "string", "integer", "number", "boolean":
		default:
			return fmt.Errorf("x-mcp-header applies to string, number and boolean fields only")
		}
		s.MCPHeader = it.value
	case "uniqueItems":
		if it.value != "true" {
			return fmt.Errorf("uniqueItems=%s: only uniqueItems=true is meaningful", it.value)
		}
		s.UniqueItems = true
	case "enum", "default":
		lit, err := literal(s, it.value)
		if err != nil {
			return fmt.Errorf("%s=%s: %v", it.key, it.value, err)
		}
		if it.key == "default" {
			s.Default = lit
			return nil
		}
		if s.enumFromTag == false {
			s.Enum = nil
			s.enumFromTag = true
		}
		s.Enum = append(s.Enum, lit)
	}
	return nil
}

func kindWord(t string) string {
	switch t {
	case "number":
		return "number"
	case "string":
		return "string"
	}
	return t
}

// tighter returns whichever bound is stricter: dir 1 keeps the larger
// minimum, -1 the smaller maximum.
func tighter(old, nu string, dir int) string {
	if old == "" {
		return nu
	}
	a, _ := new(big.Rat).SetString(old)
	b, _ := new(big.Rat).SetString(nu)
	if a.Cmp(b)*dir >= 0 {
		return old
	}
	return nu
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func isJSONNumber(s string) bool { return jsonNumber.MatchString(s) }

// literal converts a tag value to a JSON literal of the schema's type.
func literal(s *Schema, v string) (string, error) {
	switch s.Type {
	case "string":
		q, _ := json.Marshal(v)
		return string(q), nil
	case "integer", "number":
		if !isJSONNumber(v) {
			return "", fmt.Errorf("want a number")
		}
		if s.Type == "integer" {
			r, _ := new(big.Rat).SetString(v)
			if !r.IsInt() {
				return "", fmt.Errorf("want an integer")
			}
		}
		return v, nil
	case "boolean":
		if v != "true" && v != "false" {
			return "", fmt.Errorf("want true or false")
		}
		return v, nil
	}
	if !json.Valid([]byte(v)) {
		return "", fmt.Errorf("want a JSON value")
	}
	return v, nil
}

// Field is one JSON property of a struct type as encoding/json decodes it.
type Field struct {
	// Name is the JSON name.
	Name string
	// Index is the path of field indexes through embedded structs.
	Index []int
	// Var is the Go field.
	Var *types.Var
	// Quoted is set by the ",string" option.
	Quoted bool
	// Default is the JSON the field decodes from when its key is absent
	// (`jsonschema:"default=…"`), without the quotes of ",string"; empty
	// when it has none.
	Default string
}

// Fields returns the JSON properties of the struct type t, in the order
// encoding/json uses, with embedded structs' fields promoted.
func Fields(t types.Type) []Field {
	var out []Field
	for _, f := range fields(t) {
		out = append(out, Field{Name: f.name, Index: f.index, Var: f.v, Quoted: f.quoted, Default: fieldDefault(f)})
	}
	return out
}

// fieldDefault returns the JSON a field's default= tag item decodes from.
func fieldDefault(f field) string {
	raw, ok := reflect.StructTag(f.tag).Lookup("jsonschema")
	if !ok {
		return ""
	}
	tag, err := parseTag(raw)
	if err != nil {
		return ""
	}
	for _, it := range tag.items {
		if it.key != "default" {
			continue
		}
		g := &Generator{Fset: token.NewFileSet()}
		g.init()
		lit, err := literal(g.typeSchema(f.typ, token.NoPos), it.value)
		if err != nil {
			return ""
		}
		return lit
	}
	return ""
}

// HasMethod reports whether t or *t has the exported method name.
func HasMethod(t types.Type, name string) bool { return hasMethod(t, name) }

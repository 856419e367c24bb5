package schemacheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/modkit/modkit/internal/jsontree"
	"github.com/modkit/modkit/internal/words"
	"github.com/modkit/modkit/sdk/jsoncheck"
)

// Schema is a compiled input schema, with its JSON for the words of
// problems. It is safe for concurrent use.
type Schema struct {
	compiled *jsonschema.Schema
	doc      any // the schema's JSON, objects as *object
}

// Compile compiles the input schema raw, known by url.
func Compile(url string, raw []byte) (*Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.AssertContent = true
	for _, f := range jsontree.FormatNames() {
		c.Formats[f] = func(v any) bool { return jsontree.FormatValue(f, v) }
	}
	if err := c.AddResource(url, bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	doc, err := decodeOrdered(dec)
	if err != nil {
		return nil, err
	}
	return &Schema{compiled: s, doc: doc}, nil
}

// object is a JSON object that keeps its keys' order.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(key string) any {
	if o == nil {
		return nil
	}
	return o.vals[key]
}

func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &object{vals: map[string]any{}}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			o.keys = append(o.keys, k.(string))
			o.vals[k.(string)] = v
		}
		_, err = dec.Token()
		return o, err
	case json.Delim('['):
		var a []any
		for dec.More() {
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err = dec.Token()
		return a, err
	}
	return tok, nil
}

// problem is one line with the place a validator walking the input meets
// it: the offset, then the order of checks at that offset.
type problem struct {
	at, rank int
	line     string
}

// Check checks input against the schema and returns every problem as
// "/json/path: what is wrong", in the words and order of the generated
// validator of the same schema.
func (s *Schema) Check(input []byte) (problems []string) {
	root, found := jsontree.Parse(input)
	if root == nil {
		return []string{found[0].Line}
	}
	j := judge{s: s, root: root}
	ints := map[int]bool{}
	j.integers(root, nil, ints)
	var ps []problem
	for _, f := range found {
		if ints[f.At] {
			continue // an integer's own range names its bound
		}
		// After a wrong type, before what a number breaks.
		ps = append(ps, problem{at: f.At, rank: 1, line: f.Line})
	}
	defer func() {
		// The library is not ours: whatever it does, the call survives.
		if r := recover(); r != nil {
			problems = []string{"/: " + "cannot be checked against the tool's schema"}
		}
	}()
	hideEmptyKeys(root.Value)
	if err := s.compiled.Validate(root.Value); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return []string{"/: cannot be checked against the tool's schema"}
		}
		j.collect(ve)
	}
	j.dups(root, nil)
	j.escapedTimes(root, nil)
	ps = append(ps, j.out...)
	sort.SliceStable(ps, func(a, b int) bool {
		if ps[a].at != ps[b].at {
			return ps[a].at < ps[b].at
		}
		return ps[a].rank < ps[b].rank
	})
	for _, p := range ps {
		if n := len(problems); n > 0 && problems[n-1] == p.line {
			continue
		}
		problems = append(problems, p.line)
	}
	return problems
}

// judge words the library's errors for one input.
type judge struct {
	s    *Schema
	root *jsontree.Node
	out  []problem
}

// add records a problem at the library's instance location loc.
func (j *judge) add(at, rank int, loc, msg string) { j.addAt(at, rank, tokens(loc), msg) }

// addAt records a problem at a path of keys and indexes.
func (j *judge) addAt(at, rank int, path []string, msg string) {
	j.out = append(j.out, problem{at: at, rank: rank, line: pointer(path) + ": " + msg})
}

// collect words the leaf errors of ve.
func (j *judge) collect(ve *jsonschema.ValidationError) {
	kwLoc := ve.AbsoluteKeywordLocation
	if _, frag, ok := strings.Cut(kwLoc, "#"); ok {
		kwLoc = frag
	}
	parentLoc, keyword := kwLoc, ""
	if i := strings.LastIndexByte(kwLoc, '/'); i >= 0 {
		parentLoc, keyword = kwLoc[:i], kwLoc[i+1:]
	}
	sch, _ := lookup(j.s.doc, parentLoc).(*object)
	if keyword == "type" && sch.get("type") == "null" {
		return // the null branch of an optional value: it never speaks
	}
	if keyword == "anyOf" {
		if names, ok := anyRequired(sch); ok {
			// At least one of several properties: one line, not one per
			// branch.
			if node := j.node(ve.InstanceLocation); node != nil {
				j.add(node.End, anyRequiredRank+groupIndex(parentLoc), ve.InstanceLocation, words.MissingOneOf(names))
				return
			}
		}
	}
	if keyword == "oneOf" || keyword == "anyOf" {
		// A choice among const values (a form's titled options) is worded
		// as an enum: the allowed values, not each branch's failure.
		if lits, ok := constLits(sch.get(keyword)); ok {
			if node := j.node(ve.InstanceLocation); node != nil {
				j.enum(node, ve.InstanceLocation, sch, lits)
				return
			}
		}
	}
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			j.collect(c)
		}
		return
	}
	if strings.Contains(kwLoc, "/propertyNames/") {
		j.keyName(ve.InstanceLocation, keyword, sch)
		return
	}
	node := j.node(ve.InstanceLocation)
	if node == nil || sch == nil {
		j.add(0, 0, ve.InstanceLocation, "does not match the tool's schema")
		return
	}
	if node.Long && keyword != "type" {
		return // a number too long to judge has its one problem
	}
	loc := ve.InstanceLocation
	raw := func() string { return string(node.Raw) }
	str, _ := node.Value.(string)
	switch keyword {
	case "type":
		want := typeOf(sch)
		if want == "integer" && kindOf(node.Value) == jsoncheck.Number {
			j.add(node.Start, 2, loc, words.NotInteger(raw()))
			// A validator still holds the number to an enum of mixed
			// values, which the library skips once the type fails.
			if lits := enumLits(sch.get("enum")); len(lits) > 0 && !jsoncheck.OneOf(node.Raw, lits...) {
				j.add(node.End, 0, loc, words.Enum(lits, raw()))
			}
			return
		}
		j.add(node.Start, 0, loc, words.Type(typeWords(want), kindOf(node.Value).String()))
	case "enum":
		j.enum(node, loc, sch, enumLits(sch.get("enum")))
	case "const":
		j.enum(node, loc, sch, enumLits([]any{sch.get("const")}))
	case "minLength":
		j.add(node.Start, 1, loc, words.MinLength(uintOf(sch, keyword), utf8.RuneCountInString(str)))
	case "maxLength":
		j.add(node.Start, 2, loc, words.MaxLength(uintOf(sch, keyword), utf8.RuneCountInString(str)))
	case "pattern":
		j.add(node.Start, 3, loc, words.Pattern(fmt.Sprint(sch.get(keyword)), str))
	case "format":
		format := fmt.Sprint(sch.get(keyword))
		if kindOf(node.Value) == jsoncheck.Number {
			j.add(node.Start, 3, loc, words.Range(format, raw(), strings.HasPrefix(raw(), "-")))
			return
		}
		j.add(node.Start, 4, loc, words.Format(format, str))
	case "contentEncoding":
		j.add(node.Start, 5, loc, words.Base64())
	case "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum":
		rank := map[string]int{"minimum": 4, "exclusiveMinimum": 5, "maximum": 6, "exclusiveMaximum": 7}[keyword]
		j.add(node.Start, rank, loc, words.Bound(keyword, fmt.Sprint(sch.get(keyword)), raw()))
	case "multipleOf":
		j.add(node.Start, 8, loc, words.MultipleOf(fmt.Sprint(sch.get(keyword)), raw()))
	case "minItems":
		j.add(node.End, 1, loc, words.MinItems(uintOf(sch, keyword), len(node.Items)))
	case "maxItems":
		j.add(node.End, 2, loc, words.MaxItems(uintOf(sch, keyword), len(node.Items)))
	case "uniqueItems":
		items := make([][]byte, len(node.Items))
		for i, it := range node.Items {
			items[i] = it.Raw
		}
		if a, b, ok := jsoncheck.Repeated(items); ok {
			j.add(node.End, 3, loc, words.Unique(a, b))
		}
	case "minProperties":
		j.add(node.End, 1, loc, words.MinProperties(uintOf(sch, keyword), len(node.Keys)))
	case "maxProperties":
		j.add(node.End, 2, loc, words.MaxProperties(uintOf(sch, keyword), len(node.Keys)))
	case "required":
		rank := 1
		if strings.HasSuffix(parentLoc, "/then") || strings.HasSuffix(parentLoc, "/else") {
			rank = condRank // after the object's own required and anyOf groups
		}
		for i, name := range stringsOf(sch.get("required")) {
			if !hasKey(node, name) {
				j.add(node.End, rank+i, loc, words.Missing(name))
			}
		}
	case "additionalProperties":
		props, _ := sch.get("properties").(*object)
		allowed := allowedList(props)
		for i, key := range node.Keys {
			if props.get(key) == nil {
				j.add(node.KeyAt[i], 0, loc, words.Unknown(key, allowed))
			}
		}
	default:
		j.add(node.Start, 0, loc, "does not match the tool's schema")
	}
}

// The ranks at an object's end, in the order a generated validator checks:
// required properties (from 1), then each anyOf group of allOf, then what
// the if/then/else requires.
const (
	anyRequiredRank = 1 << 20
	condRank        = 1 << 21
)

// anyRequired returns the property names of an anyOf whose branches each
// require one property, as modgen writes "at least one of".
func anyRequired(sch *object) ([]string, bool) {
	branches, _ := sch.get("anyOf").([]any)
	if len(branches) == 0 {
		return nil, false
	}
	var names []string
	for _, b := range branches {
		o, _ := b.(*object)
		req := stringsOf(o.get("required"))
		if o == nil || len(o.keys) != 1 || len(req) != 1 {
			return nil, false
		}
		names = append(names, req[0])
	}
	return names, true
}

// groupIndex is N of a keyword location ending in /allOf/N.
func groupIndex(loc string) int {
	i := strings.LastIndexByte(loc, '/')
	n, _ := strconv.Atoi(loc[i+1:])
	return min(n, anyRequiredRank-1)
}

// keyName words a problem with an object key, which the library reports
// at the key's path.
func (j *judge) keyName(loc, keyword string, sch *object) {
	i := strings.LastIndexByte(loc, '/')
	parent := j.node(loc[:max(i, 0)])
	key := ""
	if toks := tokens(loc); len(toks) > 0 {
		key = toks[len(toks)-1]
	}
	if parent == nil || sch == nil {
		j.add(0, 0, loc, "does not match the tool's schema")
		return
	}
	at := parent.Start
	for k, name := range parent.Keys {
		if name == key {
			at = parent.KeyAt[k]
		}
	}
	switch keyword {
	case "pattern":
		j.add(at, 1, loc, words.KeyPattern(fmt.Sprint(sch.get(keyword))))
	case "format":
		j.add(at, 2, loc, words.KeyFormat(fmt.Sprint(sch.get(keyword)), key))
	default:
		j.add(at, 0, loc, "property name does not match the tool's schema")
	}
}

// emptyKey stands in for the empty key while the library validates: it
// leaves an empty key out of the paths it reports.
const emptyKey = "modkit-empty-key-0c1d7e"

// hideEmptyKeys renames the empty keys of v's objects to emptyKey.
func hideEmptyKeys(v any) {
	switch v := v.(type) {
	case map[string]any:
		if x, ok := v[""]; ok {
			delete(v, "")
			v[emptyKey] = x
		}
		for _, x := range v {
			hideEmptyKeys(x)
		}
	case []any:
		for _, x := range v {
			hideEmptyKeys(x)
		}
	}
}

// tokens splits a location the library reports (a JSON Pointer whose
// tokens are also URL path escaped) into its tokens.
func tokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	out := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, t := range out {
		if u, err := url.PathUnescape(t); err == nil {
			t = u
		}
		t = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		if t == emptyKey {
			t = ""
		}
		out[i] = t
	}
	return out
}

var timePattern = regexp.MustCompile(words.TimePattern)

// escapedTimes words the date-times of time.Time values (their schemas
// carry words.TimePattern) written with escapes, which Go's time
// decoding refuses though the library sees only the unescaped text.
func (j *judge) escapedTimes(n *jsontree.Node, path []string) {
	for i, m := range n.Members {
		j.escapedTimes(m, append(path, n.Keys[i]))
	}
	for i, it := range n.Items {
		j.escapedTimes(it, append(path, strconv.Itoa(i)))
	}
	s, ok := n.Value.(string)
	if !ok || !n.Escaped || !timePattern.MatchString(s) || !jsontree.IsDateTime(s) {
		return
	}
	raw := n.Raw[1 : len(n.Raw)-1]
	if sch := schemaAt(j.s.doc, path); sch != nil && sch.get("pattern") == words.TimePattern && !jsontree.IsGoTime(raw) {
		j.addAt(n.Start, 5, path, words.GoTime(string(raw)))
	}
}

// integers adds to at the offsets of the numbers, written within the
// length limit, whose schema wants an integer with a bound on their side
// (a format, an enum, a minimum for a negative number, a maximum for a
// positive one): a generated validator holds them to that, not to a 64-bit
// float's range.
func (j *judge) integers(n *jsontree.Node, path []string, at map[int]bool) {
	for i, m := range n.Members {
		j.integers(m, append(path, n.Keys[i]), at)
	}
	for i, it := range n.Items {
		j.integers(it, append(path, strconv.Itoa(i)), at)
	}
	if kindOf(n.Value) != jsoncheck.Number || n.Long {
		return
	}
	sch := schemaAt(j.s.doc, path)
	if sch == nil || typeOf(sch) != "integer" {
		return
	}
	bounds := []string{"format", "enum", "maximum", "exclusiveMaximum"}
	if bytes.HasPrefix(n.Raw, []byte("-")) {
		bounds = []string{"format", "enum", "minimum", "exclusiveMinimum"}
	}
	for _, k := range bounds {
		if _, ok := sch.vals[k]; ok {
			at[n.Start] = true
			return
		}
	}
}

// dups words the keys given twice, as the validator of the object's
// schema does: twice a known property or a map key is a duplicate, twice
// an unknown property is unknown again, and any other value takes them.
func (j *judge) dups(n *jsontree.Node, path []string) {
	for i, m := range n.Members {
		j.dups(m, append(path, n.Keys[i]))
	}
	for i, it := range n.Items {
		j.dups(it, append(path, strconv.Itoa(i)))
	}
	if len(n.Dups) == 0 {
		return
	}
	sch := schemaAt(j.s.doc, path)
	if sch == nil {
		return
	}
	props, _ := sch.get("properties").(*object)
	extra := sch.get("additionalProperties")
	for _, d := range n.Dups {
		switch {
		case props.get(d.Key) != nil:
			j.addAt(d.At, 0, path, words.Duplicate(d.Key))
		case extra == false:
			j.addAt(d.At, 0, path, words.Unknown(d.Key, allowedList(props)))
		case extra != nil:
			j.addAt(d.At, 0, path, words.Duplicate(d.Key))
		}
	}
}

// schemaAt returns the schema that judges the value at path, following
// $ref and the non-null branch of anyOf.
func schemaAt(doc any, path []string) *object {
	sch := resolve(doc, doc)
	for _, tok := range path {
		if sch == nil {
			return nil
		}
		if p, ok := sch.get("properties").(*object); ok && p.get(tok) != nil {
			sch = resolve(doc, p.get(tok))
		} else if items := sch.get("items"); items != nil {
			sch = resolve(doc, items)
		} else if extra, ok := sch.get("additionalProperties").(*object); ok {
			sch = resolve(doc, extra)
		} else {
			return nil
		}
	}
	return sch
}

func resolve(doc, s any) *object {
	for range 64 {
		o, ok := s.(*object)
		if !ok {
			return nil
		}
		if ref, ok := o.get("$ref").(string); ok {
			s = lookup(doc, strings.TrimPrefix(ref, "#"))
			continue
		}
		if any, ok := o.get("anyOf").([]any); ok {
			for _, b := range any {
				if bo, ok := b.(*object); ok && bo.get("type") != "null" {
					s = bo
				}
			}
			continue
		}
		return o
	}
	return nil
}

// lookup follows a JSON Pointer in the schema's JSON.
func lookup(doc any, ptr string) any {
	cur := doc
	if ptr == "" {
		return cur
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case *object:
			cur = c.get(tok)
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	return cur
}

// node finds the input value at a JSON Pointer.
func (j *judge) node(ptr string) *jsontree.Node {
	n := j.root
	if ptr == "" {
		return n
	}
	for _, tok := range tokens(ptr) {
		next := (*jsontree.Node)(nil)
		if n.Items != nil {
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Items) {
				next = n.Items[i]
			}
		}
		for i, k := range n.Keys {
			if k == tok {
				next = n.Members[i]
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

func pointer(path []string) string {
	if len(path) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, t := range path {
		b.WriteByte('/')
		// A key is cut as the generated validators cut it.
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(words.Echo(t), "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// typeOf is a schema's JSON type, without null.
func typeOf(sch *object) string {
	switch t := sch.get("type").(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				return s
			}
		}
	}
	return ""
}

// typeWords says a JSON type as problem messages do.
func typeWords(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	case "":
		return "a JSON value"
	}
	return "a " + t
}

// enum words a value that is none of lits, the JSON literals allowed.
func (j *judge) enum(node *jsontree.Node, loc string, sch *object, lits []string) {
	if typeOf(sch) == "string" && allQuoted(lits) {
		str, _ := node.Value.(string)
		j.add(node.Start, 6, loc, words.Enum(lits, strconv.Quote(str)))
		return
	}
	j.add(node.End, 0, loc, words.Enum(lits, string(node.Raw)))
}

// constLits returns the const values of branches (of oneOf or anyOf) that
// each allow one value, as JSON literals; ok is false for any other
// branches.
func constLits(branches any) (lits []string, ok bool) {
	items, _ := branches.([]any)
	if len(items) == 0 {
		return nil, false
	}
	values := make([]any, len(items))
	for i, it := range items {
		b, _ := it.(*object)
		if b == nil {
			return nil, false
		}
		for _, k := range b.keys {
			if k != "const" && k != "title" && k != "description" {
				return nil, false
			}
		}
		if _, has := b.vals["const"]; !has {
			return nil, false
		}
		values[i] = b.get("const")
	}
	return enumLits(values), true
}

func enumLits(v any) []string {
	items, _ := v.([]any)
	lits := make([]string, len(items))
	for i, it := range items {
		if it == nil {
			lits[i] = "null"
			continue
		}
		b, _ := json.Marshal(it)
		lits[i] = string(b)
	}
	return lits
}

func allQuoted(lits []string) bool {
	for _, l := range lits {
		if !strings.HasPrefix(l, `"`) {
			return false
		}
	}
	return true
}

func uintOf(sch *object, key string) uint64 {
	n, _ := strconv.ParseUint(fmt.Sprint(sch.get(key)), 10, 64)
	return n
}

func stringsOf(v any) []string {
	items, _ := v.([]any)
	var out []string
	for _, it := range items {
		if s, ok := it.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func hasKey(n *jsontree.Node, key string) bool {
	for _, k := range n.Keys {
		if k == key {
			return true
		}
	}
	return false
}

// allowedList is the quoted property names of a closed object, as the
// validator lists them.
func allowedList(props *object) string {
	if props == nil {
		return ""
	}
	q := make([]string, len(props.keys))
	for i, k := range props.keys {
		q[i] = strconv.Quote(k)
	}
	return strings.Join(q, ", ")
}

// WithDefaults returns input, which Check accepted, with the default of
// every absent property that has one filled in, as a generated decoder
// fills them; input itself when nothing is absent.
func (s *Schema) WithDefaults(input []byte) []byte {
	root, _ := jsontree.Parse(input)
	if root == nil {
		return input
	}
	v, changed := fill(s.doc, resolve(s.doc, s.doc), root.Value)
	if !changed {
		return input
	}
	out, err := json.Marshal(v)
	if err != nil {
		return input
	}
	return out
}

// fill adds the defaults sch gives to the decoded value v.
func fill(doc any, sch *object, v any) (any, bool) {
	if sch == nil {
		return v, false
	}
	changed := false
	switch v := v.(type) {
	case map[string]any:
		props, _ := sch.get("properties").(*object)
		if props != nil {
			for _, name := range props.keys {
				p := resolve(doc, props.get(name))
				if _, ok := v[name]; !ok {
					if d := defaultOf(props.get(name)); d != nil {
						v[name] = d
						changed = true
					}
					continue
				}
				if nv, c := fill(doc, p, v[name]); c {
					v[name], changed = nv, true
				}
			}
			return v, changed
		}
		if extra, ok := sch.get("additionalProperties").(*object); ok {
			for k, x := range v {
				if nv, c := fill(doc, resolve(doc, extra), x); c {
					v[k], changed = nv, true
				}
			}
		}
	case []any:
		if items := resolve(doc, sch.get("items")); items != nil {
			for i, x := range v {
				if nv, c := fill(doc, items, x); c {
					v[i], changed = nv, true
				}
			}
		}
	}
	return v, changed
}

// defaultOf returns a property schema's default, as JSON, or nil.
func defaultOf(s any) any {
	o, ok := s.(*object)
	if !ok {
		return nil
	}
	d, ok := o.vals["default"]
	if !ok {
		return nil
	}
	b, err := json.Marshal(plain(d))
	if err != nil {
		return nil
	}
	return json.RawMessage(b)
}

// plain turns the schema's ordered objects back into maps.
func plain(v any) any {
	switch v := v.(type) {
	case *object:
		m := make(map[string]any, len(v.keys))
		for _, k := range v.keys {
			m[k] = plain(v.vals[k])
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = plain(x)
		}
		return out
	}
	return v
}

// kindOf returns the kind of a decoded value.
func kindOf(v any) jsoncheck.Kind {
	switch v.(type) {
	case nil:
		return jsoncheck.Null
	case bool:
		return jsoncheck.Bool
	case json.Number, float64:
		return jsoncheck.Number
	case string:
		return jsoncheck.String
	case []any:
		return jsoncheck.Array
	case map[string]any:
		return jsoncheck.Object
	}
	return jsoncheck.Invalid
}

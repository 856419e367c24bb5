package schematest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Color is a color the model may pick.
type Color string

// The colors, declared across two const blocks; AlsoRed repeats a value.
const (
	Red   Color = "red"
	Green Color = "green"
)

const (
	Blue    Color = "blue"
	AlsoRed Color = "red"
	// purple is untyped: it is no Color.
	purple = "purple"
)

var _ = purple

// Level is an importance level.
type Level int

// The levels, from iota.
const (
	Low Level = iota + 1
	Mid
	High
)

// FreeText is a named string with no constants: no enum.
type FreeText string

// Upper is a string with text marshaling: a JSON string.
type Upper string

// MarshalText implements encoding.TextMarshaler.
func (u Upper) MarshalText() ([]byte, error) { return []byte(strings.ToUpper(string(u))), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (u *Upper) UnmarshalText(b []byte) error {
	*u = Upper(strings.ToUpper(string(b)))
	return nil
}

// Opaque marshals itself: its fields are not its wire form.
type Opaque struct {
	Secret string
}

// MarshalJSON implements json.Marshaler.
func (o Opaque) MarshalJSON() ([]byte, error) { return json.Marshal(o.Secret) }

// UnmarshalJSON implements json.Unmarshaler.
func (o *Opaque) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &o.Secret) }

// Base is embedded in Everything; its fields are promoted.
type Base struct {
	// ID identifies the thing.
	ID string `json:"id"`
	// Shadowed loses to Everything's own field of the same name.
	Shadowed int `json:"shadowed"`
}

// Nested is embedded with a JSON name: a nested object.
type Nested struct {
	Inner string `json:"inner"`
}

// Everything covers names, omission, wire forms, required and null rules.
type Everything struct {
	Base
	Nested `json:"nested"`
	// Shadowed is shallower than Base.Shadowed and wins.
	Shadowed string `json:"shadowed"`
	Plain    string // no tag: the Go name
	Renamed  string `json:"renamed"`
	Skipped  string `json:"-"`
	Dash     string `json:"-,"`
	hidden   string
	Optional string            `json:"optional,omitempty"`
	Zero     int               `json:"zero,omitzero"`
	Ptr      *int              `json:"ptr"`
	Forced   *string           `json:"forced" jsonschema:"required"`
	Relaxed  string            `json:"relaxed" jsonschema:"optional"`
	Quoted   int64             `json:"quoted,string"`
	When     time.Time         `json:"when"`
	Blob     []byte            `json:"blob"`
	Raw      json.RawMessage   `json:"raw"`
	Anything any               `json:"anything"`
	Up       Upper             `json:"up"`
	Op       Opaque            `json:"op"`
	Color    Color             `json:"color"`
	MaybeCol *Color            `json:"maybeColor,omitempty"`
	Level    Level             `json:"level"`
	Free     FreeText          `json:"free"`
	Counts   map[string]uint16 `json:"counts"`
	ByID     map[int]string    `json:"byId,omitempty"`
	ByUpper  map[Upper]bool    `json:"byUpper,omitempty"`
	Pair     [2]int8           `json:"pair"`
	Items    []Item            `json:"items"`
	MaybeIt  *Item             `json:"maybeItem"`
	Sizes    Sizes             `json:"sizes,omitempty"`
	Page     Page[Item]        `json:"page,omitzero"`
}

func (e Everything) unused() string { return e.hidden }

var _ = Everything.unused

// Sizes covers the bounds of sized integers.
type Sizes struct {
	I8  int8    `json:"i8"`
	I16 int16   `json:"i16"`
	I32 int32   `json:"i32"`
	I64 int64   `json:"i64"`
	U   uint    `json:"u"`
	U8  uint8   `json:"u8"`
	U16 uint16  `json:"u16"`
	U32 uint32  `json:"u32"`
	U64 uint64  `json:"u64"`
	F32 float32 `json:"f32"`
	F64 float64 `json:"f64"`
}

// Item is one thing in a list.
type Item struct {
	// Title names the item.
	Title string `json:"title" jsonschema:"minLength=1,maxLength=20"`
	Level Level  `json:"level,omitempty"`
}

// Constraints covers every constraint tag.
type Constraints struct {
	Score   float64  `json:"score" jsonschema:"minimum=0,exclusiveMaximum=1,how sure, from 0 to 1"`
	Step    int      `json:"step" jsonschema:"multipleOf=5,exclusiveMinimum=0"`
	Half    float64  `json:"half,omitempty" jsonschema:"multipleOf=0.5"`
	Limit   uint8    `json:"limit" jsonschema:"minimum=1,maximum=50,default=10"`
	Name    string   `json:"name" jsonschema:"minLength=2,maxLength=8"`
	Code    string   `json:"code" jsonschema:"pattern=\"^[A-Z]{2,3}$\""`
	Email   string   `json:"email,omitempty" jsonschema:"format=email"`
	Site    string   `json:"site,omitempty" jsonschema:"format=uri"`
	ID      string   `json:"uuid,omitempty" jsonschema:"format=uuid"`
	Day     string   `json:"day,omitempty" jsonschema:"format=date"`
	At      string   `json:"at,omitempty" jsonschema:"format=date-time"`
	Tags    []string `json:"tags" jsonschema:"minItems=1,maxItems=3,uniqueItems=true"`
	Mode    string   `json:"mode" jsonschema:"enum=fast,enum=slow,default=fast"`
	Percent int      `json:"percent,omitempty" jsonschema:"enum=0,enum=50,enum=100"`
	Note    string   `json:"note,omitempty" jsonschema:"A free text note, with a comma"`
	Flag    any      `json:"flag,omitempty" jsonschema:"enum=1,enum=true,enum=null"`
	On      bool     `json:"on,string,omitempty"`
	Ratio   float64  `json:"ratio,string,omitempty"`
	Count   *uint32  `json:"count,string,omitempty"`
	*Extra
}

// Extra is embedded through a pointer: its fields are promoted.
type Extra struct {
	// Origin says where the request came from.
	Origin string `json:"origin,omitempty" jsonschema:"maxLength=10"`
}

// Node is a tree: it refers to itself through $defs.
type Node struct {
	Name     string `json:"name"`
	Children []Node `json:"children,omitempty"`
	Parent   *Node  `json:"parent,omitempty"`
}

// Page is a generic page of results.
type Page[T any] struct {
	// Items are this page's results.
	Items []T `json:"items"`
	// Next is the cursor of the next page, null on the last.
	Next *string `json:"next"`
}

// ItemPage is a page of items: a generic instantiation.
type ItemPage = Page[Item]

// Search is a realistic tool input, the one the benchmarks decode.
type Search struct {
	// Query is the text to look for.
	Query string `json:"query" jsonschema:"minLength=1,maxLength=200"`
	// Paths limits the search to these directories.
	Paths []string `json:"paths,omitempty" jsonschema:"maxItems=20"`
	// Limit is the most matches to return.
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1,maximum=500"`
	// Regex treats Query as a regular expression.
	Regex bool `json:"regex,omitempty"`
	// Since keeps files changed after this time.
	Since *time.Time `json:"since,omitempty"`
	// Kinds are file kinds to include.
	Kinds []Kind `json:"kinds,omitempty"`
	// Options tune the matching.
	Options SearchOptions `json:"options"`
}

// Validate implements sdk.Validator: cross-field rules run after the
// structural checks.
func (s Search) Validate() error {
	if s.Regex && strings.HasPrefix(s.Query, "*") {
		return errors.New("/query: a regular expression cannot start with '*'")
	}
	return nil
}

// Kind is a file kind.
type Kind string

// The file kinds.
const (
	KindText Kind = "text"
	KindCode Kind = "code"
	KindDoc  Kind = "doc"
)

// SearchOptions tune a search.
type SearchOptions struct {
	CaseSensitive bool     `json:"caseSensitive"`
	Context       int      `json:"context" jsonschema:"minimum=0,maximum=10"`
	Exclude       []string `json:"exclude,omitempty"`
}

// Wire covers named types from the standard library with typed constants:
// they follow their JSON wire form, never their package's constants.
type Wire struct {
	// Budget is how long the work may take.
	Budget time.Duration `json:"budget"`
	Wait   time.Duration `json:"wait,omitempty"`
	Month  time.Month    `json:"month"`
	Mode   os.FileMode   `json:"mode"`
	// State is a net/http status type, with typed constants of its own.
	State http.ConnState `json:"state"`
	// Settle, a time.Time, accepts only what Go's time decoding takes.
	Settle time.Time `json:"settle,omitempty"`
	// Labels have at most three keys.
	Labels map[string]string `json:"labels,omitempty" jsonschema:"minProperties=1,maxProperties=3"`
	// Point is a fixed-size array: problems point at the element.
	Point [3]float64 `json:"point,omitempty"`
	// Big is a 64-bit integer written as a string.
	Big int64 `json:"big,omitempty,string"`
	// Due is the month it is due: marked enum, so time.Month's typed
	// constants are its values.
	Due time.Month `json:"due,omitempty" jsonschema:"enum"`
	// Retries is applied when absent.
	Retries int `json:"retries,omitempty" jsonschema:"default=3"`
}

// Age is a number of years written as text; it decodes itself with
// strconv and wraps strconv's error.
type Age int

// MarshalText implements encoding.TextMarshaler.
func (a Age) MarshalText() ([]byte, error) { return []byte(strconv.Itoa(int(a))), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (a *Age) UnmarshalText(b []byte) error {
	n, err := strconv.Atoi(string(b))
	if err != nil {
		return fmt.Errorf("age: %w", err)
	}
	*a = Age(n)
	return nil
}

// Day is a date written as text; it decodes itself with time.Parse.
type Day struct{ t time.Time }

// MarshalText implements encoding.TextMarshaler.
func (d Day) MarshalText() ([]byte, error) { return []byte(d.t.Format(time.DateOnly)), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Day) UnmarshalText(b []byte) error {
	t, err := time.Parse(time.DateOnly, string(b))
	if err != nil {
		return fmt.Errorf("day: %w", err)
	}
	d.t = t
	return nil
}

// Owned has properties whose types decode themselves: their errors reach
// the model in JSON terms.
type Owned struct {
	Age Age    `json:"age"`
	Day Day    `json:"day"`
	Op  Opaque `json:"op"`
}

// Method is how to reach a contact.
type Method string

// The methods.
const (
	Phone Method = "phone"
	Email Method = "email"
)

// Contact states constraints on the struct as a whole, in its blank
// field's tag: a phone or an email or both, and the one its method names.
type Contact struct {
	_       struct{} `jsonschema:"anyRequired=phone|email,if=contactMethod=phone,then=phone,else=email"`
	Name    string   `json:"name,omitempty"`
	Address *Address `json:"address,omitempty"`
	Method  Method   `json:"contactMethod,omitempty"`
	Phone   string   `json:"phone,omitempty"`
	Email   string   `json:"email,omitempty"`
	// Backup is a second way to reach the contact.
	Backup *Backup `json:"backup,omitempty"`
}

// Address is where a contact lives.
type Address struct {
	_      struct{} `jsonschema:"anchor=addressDef"`
	Street string   `json:"street,omitempty"`
	City   string   `json:"city,omitempty"`
}

// Backup has two groups and a condition on an integer and on a boolean.
type Backup struct {
	_       struct{} `jsonschema:"anyRequired=a|b|c,anyRequired=d|e,if=level=2,then=a d"`
	Level   int      `json:"level,omitempty"`
	A       *int     `json:"a,omitempty"`
	B       *string  `json:"b,omitempty"`
	C       *bool    `json:"c,omitempty"`
	D       *string  `json:"d,omitempty"`
	E       *string  `json:"e,omitempty"`
	Through *Urgency `json:"through,omitempty"`
}

// Urgency switches on a boolean.
type Urgency struct {
	_      struct{} `jsonschema:"if=urgent=true,else=note"`
	Urgent bool     `json:"urgent,omitempty"`
	Note   string   `json:"note,omitempty"`
}

// Package schema turns Go types, as go/types sees them, into JSON Schema
// draft 2020-12 following modkit's schema convention (SPEC section 3).
//
// # Convention
//
// Names and omission follow encoding/json; the schema describes the wire
// form (time.Time, []byte, json.RawMessage, any, text and JSON marshalers);
// fields are required unless omitempty, omitzero or a pointer; pointers
// accept null; objects are closed; doc comments become descriptions;
// `jsonschema:"..."` tags add constraints; typed constants make enums; Go
// integer sizes become bounds; named structs, recursive and generic types go
// through $defs and $ref.
//
// # Use
//
// A [Generator] converts one type at a time with [Generator.Root]; it keeps
// $defs names stable across the roots it converts and collects every
// problem as an [Error] with its position. The result is a [*Schema], a
// small tree that both marshals to JSON (deterministically) and drives the
// validator generator.
package schema

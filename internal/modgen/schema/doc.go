// Package schema turns Go types, as go/types sees them, into JSON Schema
// draft 2020-12 following modkit's schema convention, which the
// repository's docs/schemas.md states in full, with an example per rule.
//
// # Convention
//
// Names and omission follow encoding/json; the schema describes the wire
// form (time.Time, time.Duration, []byte, json.RawMessage, any, text and
// JSON marshalers); fields are required unless omitempty, omitzero or a
// pointer; pointers accept null; objects are closed; doc comments become
// descriptions, without their leading Go name where the rest reads as a
// sentence ("Caps the hits.", but "Options tune the scan." as written); `jsonschema:"..."` tags add
// constraints and defaults, and the tag of a struct's blank field (_
// struct{}) the struct's own: anyRequired (allOf of anyOf of required),
// if/then/else on one property's value, and $anchor; typed constants of the mod's own module make
// enums; Go integers become bounds, 64-bit ones with their format too; named
// structs, recursive and generic types go through $defs and $ref, a
// recursive root once.
//
// # Use
//
// A [Generator] converts one type at a time with [Generator.Root]; it keeps
// $defs names stable across the roots it converts and collects every
// problem as an [Error] with its position. The result is a [*Schema], a
// small tree that both marshals to JSON (deterministically) and drives the
// validator generator.
package schema

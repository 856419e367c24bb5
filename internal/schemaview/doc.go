// Package schemaview turns a JSON Schema into the field tree people read:
// one row per field with its path, its type in JSON terms, whether it is
// required, its description and constraints. modhost inspect, inspect
// --markdown and the workbench page all show this one view, so a field is
// written the same way everywhere.
//
// # Notation
//
// A path is a JSON Pointer to the field, the form input problems use
// ("/filters/kind"), with "*" for any array element and "{key}" for any
// map key: "/items/*/name", "/weights/{key}/value".
package schemaview

// Package schemacheck judges tool input against a JSON Schema with
// santhosh-tekuri/jsonschema, for tools whose mod has no generated
// validator, and words the problems exactly as a generated validator of
// the same schema does: a model reads the same list whichever side
// judged.
//
// # How
//
// The input is scanned by the scanner generated validators use
// ([jsontree.Parse]): syntax errors, keys given twice, numbers written
// too long and numbers beyond a 64-bit float read the same, and nothing
// the library cannot hold reaches it (numbers are bounded in length and
// value, nesting is limited). An integer beyond a 64-bit float is left to
// its own bound, as a generated validator leaves it. The library's
// structured output (keyword, instance location, the schema's own values)
// is worded by package words, as generated validators word theirs, never
// by its English text, and the lines are ordered as a validator walking
// the input meets them. A panic in the library is recovered.
package schemacheck

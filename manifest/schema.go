package manifest

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

//go:embed schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of the manifest format,
// the schema.json embedded in this package, in a new slice.
func Schema() []byte { return bytes.Clone(schemaJSON) }

// schemaURL is the $id of the embedded schema.
const schemaURL = "https://modkit.dev/schemas/mod.manifest.json"

// compiledSchema compiles the embedded schema once.
var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(schemaURL, bytes.NewReader(schemaJSON)); err != nil {
		return nil, fmt.Errorf("manifest schema: %w", err)
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("manifest schema: %w", err)
	}
	return s, nil
})

// schemaProblems checks doc, decoded with UseNumber, against the embedded
// schema and names the entry of each failure.
func schemaProblems(doc any) []Problem {
	s, err := compiledSchema()
	if err != nil {
		// The embedded schema is tested to compile; report it all the same.
		return []Problem{{Message: err.Error()}}
	}
	err = s.Validate(doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Message: err.Error()}}
	}
	var leaves []*jsonschema.ValidationError
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.SliceStable(leaves, func(i, j int) bool {
		return leaves[i].InstanceLocation < leaves[j].InstanceLocation
	})
	seen := map[string]bool{}
	var problems []Problem
	for _, l := range leaves {
		p := locate(doc, l.InstanceLocation, sortNames(l.Message))
		if key := p.String(); !seen[key] {
			seen[key] = true
			problems = append(problems, p)
		}
	}
	return problems
}

// locate turns a JSON pointer into the problem's entry: "/tools/1/kind"
// becomes entry `tools[1] "name"` and message "kind: <msg>".
func locate(doc any, ptr, msg string) Problem {
	parts := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	if ptr == "" {
		return Problem{Message: msg}
	}
	for i := range parts {
		parts[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(parts[i])
	}
	list := parts[0]
	if len(parts) == 1 {
		return Problem{Entry: list, Message: msg}
	}
	idx, err := strconv.Atoi(parts[1])
	if err != nil {
		return Problem{Entry: list, Message: strings.Join(parts[1:], "/") + ": " + msg}
	}
	entry := fmt.Sprintf("%s[%d]", list, idx)
	if name := entryName(doc, list, idx); name != "" {
		entry += fmt.Sprintf(" %q", name)
	}
	if len(parts) > 2 {
		msg = strings.Join(parts[2:], "/") + ": " + msg
	}
	return Problem{Entry: entry, Message: msg}
}

// entryName returns the name or id of doc[list][idx], if it has one.
func entryName(doc any, list string, idx int) string {
	obj, _ := doc.(map[string]any)
	arr, _ := obj[list].([]any)
	if idx < 0 || idx >= len(arr) {
		return ""
	}
	item, _ := arr[idx].(map[string]any)
	for _, key := range []string{"name", "id", "beforeAction", "kind"} {
		if s, ok := item[key].(string); ok {
			return s
		}
	}
	return ""
}

// sortNames orders the names in the validator's "additionalProperties 'b',
// 'a' not allowed", which it lists in map order, so that one document is
// always worded the same way. A quote inside a name is escaped, so "', '"
// only separates names.
func sortNames(msg string) string {
	const pre, post = "additionalProperties '", "' not allowed"
	if len(msg) < len(pre)+len(post) || !strings.HasPrefix(msg, pre) || !strings.HasSuffix(msg, post) {
		return msg
	}
	names := strings.Split(msg[len(pre):len(msg)-len(post)], "', '")
	slices.Sort(names)
	return pre + strings.Join(names, "', '") + post
}

package jsondepth

import (
	"encoding/json"
	"strings"
	"testing"
)

// validSeeds are texts at the edges of JSON's grammar.
var validSeeds = []string{
	``, ` `, `1`, `-`, `-0`, `01`, `1.`, `1.5`, `1e`, `1e+`, `1E-7`, `-12.5e10`, `.5`, `true`, `tru`, `truex`, `null `,
	`"a"`, `"\u00e9"`, `"\u00g9"`, `"\x"`, "\"\x01\"", "\"\xff\"", `"\/"`, `"abc`, `{}`, `{ }`, `[]`, `[ ]`, `[1,]`, `[,1]`,
	`{"a":1}`, `{"a" : [1, {"b":null}] }`, `{"a"}`, `{"a":}`, `{1:2}`, `{"a":1,}`, `{"a":1 "b":2}`, `[1 2]`, `[}`, `{]`,
	`{"a":[1,{"c":2}]}`, `[[],[[]]]`, `1 2`, `{} {}`, "\t[\r\n1\n]\n", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`,
}

func TestValid(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, s := range append(validSeeds, deep(MaxValidDepth), deep(MaxValidDepth+1), `{"a":`+deep(MaxValidDepth-1)+`}`, `{"a":`+deep(MaxValidDepth)+`}`) {
		checkValid(t, []byte(s))
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkValid)
}

// checkValid checks Valid against json.Valid and Of.
func checkValid(t *testing.T, data []byte) {
	depth, ok := Valid(data)
	if want := json.Valid(data); ok != want {
		t.Fatalf("Valid(%.80q) = %v, want %v (json.Valid)", data, ok, want)
	}
	if want := Of(data); ok && depth != want {
		t.Fatalf("Valid(%.80q) depth = %d, want %d (Of)", data, depth, want)
	}
}

package manifest_test

import (
	"fmt"

	"github.com/modkit/modkit/manifest"
)

// Decode refuses a manifest with problems and names each offending entry.
func ExampleDecode() {
	data := []byte(`{
  "formatVersion": "1.0",
  "id": "research",
  "goPackage": "example.com/mods/research",
  "sourceHash": "sha256:0000000000000000000000000000000000000000000000000000000000000000",
  "tools": [
    {"name": "research_word_count", "description": "Counts words.", "kind": "plain", "inputSchema": {"type": "object"}},
    {"name": "Bad-Name", "description": "", "kind": "plain", "inputSchema": {"type": "object"}}
  ],
  "hooks": [{"beforeAction": "file.write"}]
}`)
	_, err := manifest.Decode(data)
	fmt.Println(err)
	// Output:
	// manifest research: tools[1] "Bad-Name": name must be snake_case
	// manifest research: tools[1] "Bad-Name": description is empty
	// manifest research: hooks[0] "file.write": beforeAction must be one of "tool.call", "command.run" or "command:<id>" of this mod
}

// Encode writes the canonical form of a manifest; Decode reads it back.
func ExampleEncode() {
	m := &manifest.Manifest{
		FormatVersion: manifest.FormatVersion,
		ID:            "hello",
		GoPackage:     "example.com/mods/hello",
		SourceHash:    "sha256:0000000000000000000000000000000000000000000000000000000000000000",
	}
	data, err := manifest.Encode(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(data))
	back, err := manifest.Decode(data)
	fmt.Println(back.ID, err)
	// Output:
	// {
	//   "formatVersion": "1.0",
	//   "id": "hello",
	//   "displayName": "",
	//   "description": "",
	//   "goPackage": "example.com/mods/hello",
	//   "sourceHash": "sha256:0000000000000000000000000000000000000000000000000000000000000000",
	//   "tools": []
	// }
	// hello <nil>
}

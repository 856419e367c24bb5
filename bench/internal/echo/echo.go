package echo

import "encoding/json"

// Input is the echo tool's input. Every side of every comparison decodes the
// same Payload into it and answers with its JSON encoding.
type Input struct {
	// Message is the text to echo.
	Message string `json:"message" jsonschema:"minLength=1,maxLength=500"`
	// Tags label the message.
	Tags []string `json:"tags" jsonschema:"maxItems=16"`
	// Count is how many times the caller asked; it only adds a number field.
	Count int `json:"count" jsonschema:"minimum=0,maximum=1000"`
	// Loud asks for upper case; the echo ignores it.
	Loud bool `json:"loud,omitempty"`
	// Author names who sent the message.
	Author *Author `json:"author,omitempty"`
}

// Author names who sent a message.
type Author struct {
	// Name is the author's name.
	Name string `json:"name" jsonschema:"minLength=1"`
	// Email is the author's address.
	Email string `json:"email,omitempty" jsonschema:"format=email"`
}

// Payload is the input every comparison sends: about 200 bytes of JSON.
var Payload = []byte(`{"message":"The quick brown fox jumps over the lazy dog, then naps in the sun.","tags":["alpha","beta","gamma","delta"],"count":42,"loud":false,"author":{"name":"Ada Lovelace","email":"ada@example.com"}}`)

// Reply is what every echo answers for in: its JSON encoding.
func Reply(in Input) (string, error) {
	data, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

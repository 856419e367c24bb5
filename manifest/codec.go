package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Encode returns m as indented JSON with a trailing newline, the form written
// to mod.manifest.json. The same manifest always encodes to the same bytes.
func Encode(m *Manifest) ([]byte, error) {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode manifest %s: %w", m.ID, err)
	}
	return append(data, '\n'), nil
}

// Decode parses a manifest strictly: unknown fields are errors.
func Decode(data []byte) (*Manifest, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("decode manifest: %w", err)
	}
	return &m, nil
}

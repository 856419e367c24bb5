package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

func TestReadStateKey(t *testing.T) {
	t.Parallel()
	key := bytes.Repeat([]byte{0xab, 0x01}, 16)
	dir := t.TempDir()
	for name, data := range map[string]string{
		"raw": string(key), "hex": hex.EncodeToString(key) + "\n", "base64": base64.StdEncoding.EncodeToString(key) + "\n",
	} {
		file := filepath.Join(dir, name)
		os.WriteFile(file, []byte(data), 0o600)
		got, err := readStateKey(file)
		if err != nil || !bytes.Equal(got, key) {
			t.Errorf("%s: got %x, %v; want %x", name, got, err, key)
		}
	}
	file := filepath.Join(dir, "short")
	os.WriteFile(file, []byte("abc"), 0o600)
	if _, err := readStateKey(file); err == nil {
		t.Errorf("a 3-byte key: got no error, want one")
	}
}

package jsoncheck

import (
	"encoding/json"
	"testing"
)

// FuzzScanner checks the scanner against encoding/json: any bytes are
// JSON to Skip exactly when json.Valid accepts them, and nothing panics.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{`{}`, `[1,2.5e3,"x\u00e9",true,null,{"a":[]}]`, `"\ud83d\ude00"`, `-0.0e-0`, `{"a":1,}`, "\"\xff\"", ` 1 `, `[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := New(data)
		defer c.Release()
		c.Skip()
		c.End()
		if got, want := !c.Failed(), json.Valid(data); got != want {
			t.Errorf("%q: scanner says valid=%v, encoding/json says %v (%q)", data, got, want, c.Problems())
		}
	})
}

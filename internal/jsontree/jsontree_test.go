package jsontree_test

import (
	"encoding/json"
	"testing"

	"github.com/modkit/modkit/internal/jsontree"
	_ "github.com/modkit/modkit/sdk/jsoncheck" // fills jsontree.Scanner
)

func TestFormatNamesAreAsserted(t *testing.T) {
	t.Parallel()
	bad := map[string]any{
		"date-time": "2026-05-01", "date": "2026-02-30", "email": "no at sign",
		"uri": "relative/path", "uuid": "123",
		"int8": json.Number("128"), "int16": json.Number("32768"), "int32": json.Number("2147483648"),
		"int64": json.Number("9223372036854775808"), "uint8": json.Number("-1"), "uint16": json.Number("65536"),
		"uint32": json.Number("4294967296"), "uint64": json.Number("18446744073709551616"),
		"float": json.Number("1e39"), "double": json.Number("1e309"),
	}
	for _, f := range jsontree.FormatNames() {
		v, ok := bad[f]
		if !ok {
			t.Errorf("format %s: no bad value to test it with", f)
			continue
		}
		if jsontree.FormatValue(f, v) {
			t.Errorf("FormatValue(%s, %v): got true, want false", f, v)
		}
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	root, found := jsontree.Parse([]byte(`{"a":[1,"x"],"a":2,"n":1e400}`))
	if root == nil {
		t.Fatalf("got no root, problems %+v", found)
	}
	if got, want := root.Keys, []string{"a", "n"}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("keys: got %q, want %q", got, want)
	}
	if len(root.Dups) != 1 || root.Dups[0].Key != "a" || root.Dups[0].At != 13 {
		t.Errorf("dups: got %+v, want one of a at 13", root.Dups)
	}
	if len(found) != 1 || found[0].Line != "/n: must be at most 1.7976931348623157e308, got 1e400" {
		t.Errorf("problems: got %+v, want the double's bound", found)
	}
	if _, found := jsontree.Parse([]byte(`{"a":`)); len(found) != 1 || found[0].Line != "/: invalid JSON at byte 5: unexpected end of input" {
		t.Errorf("syntax: got %+v", found)
	}
}

package sdk

import (
	"encoding/json"
	"testing"
	"time"
)

type fillInner struct {
	Tags []string          `json:"tags"`
	Meta map[string]string `json:"meta"`
}

type fillOuter struct {
	Name    string               `json:"name"`
	Items   []fillInner          `json:"items"`
	ByName  map[string]fillInner `json:"byName"`
	Ptr     *fillInner           `json:"ptr"`
	NilPtr  *fillInner           `json:"nilPtr"`
	Any     any                  `json:"any"`
	Bytes   []byte               `json:"bytes"`
	Raw     json.RawMessage      `json:"raw"`
	When    time.Time            `json:"when"`
	Skipped []int                `json:"skipped,omitempty"`
	Arr     [1]fillInner         `json:"arr"`
	hidden  []int
}

func TestMarshalResult(t *testing.T) {
	in := fillOuter{
		Name:   "n",
		Items:  []fillInner{{Tags: []string{"a"}}, {}},
		ByName: map[string]fillInner{"k": {}},
		Ptr:    &fillInner{},
		Any:    fillInner{},
		Raw:    json.RawMessage(`null`),
	}
	got, err := marshalResult(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"n","items":[{"tags":["a"],"meta":{}},{"tags":[],"meta":{}}],"byName":{"k":{"tags":[],"meta":{}}},` +
		`"ptr":{"tags":[],"meta":{}},"nilPtr":null,"any":{"tags":[],"meta":{}},"bytes":"","raw":null,` +
		`"when":"0001-01-01T00:00:00Z","arr":[{"tags":[],"meta":{}}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// The value handed in is not changed.
	if in.Items[1].Tags != nil || in.Ptr.Tags != nil || in.ByName["k"].Meta != nil {
		t.Errorf("marshalResult changed its argument: %+v", in)
	}
	for _, tt := range []struct {
		v    any
		want string
	}{
		{nil, "null"},
		{[]int(nil), "[]"},
		{map[string]int(nil), "{}"},
		{(*fillInner)(nil), "null"},
		{3, "3"},
	} {
		if got, err := marshalResult(tt.v); err != nil || string(got) != tt.want {
			t.Errorf("marshalResult(%#v): got %s, %v; want %s", tt.v, got, err, tt.want)
		}
	}
}

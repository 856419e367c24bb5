package manifest

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestApprovalValidates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		approval *Approval
		want     string // "" for valid
	}{
		{&Approval{When: ApprovalAlways, Reason: "Delete the cache"}, ""},
		{&Approval{When: ApprovalByInput}, ""},
		{&Approval{When: ApprovalAlways}, "approval always needs a reason"},
		{&Approval{When: ApprovalByInput, Reason: "x"}, "approval byInput has no reason: the mod gives one per call"},
		{&Approval{When: "sometimes"}, `approval when "sometimes" is neither "always" nor "byInput"`},
	}
	for _, tt := range tests {
		m := sample()
		m.Tools[0].Approval = tt.approval
		err := Validate(m)
		var me *Error
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%+v: got %v, want valid", tt.approval, err)
		case tt.want != "" && !errors.As(err, &me):
			t.Errorf("%+v: got %v, want *Error", tt.approval, err)
		case tt.want != "" && !reflect.DeepEqual(plain(me.Problems), []Problem{{Entry: `tools[0] "research_word_count"`, Message: tt.want}}):
			t.Errorf("%+v: got problems %v, want %q", tt.approval, me.Problems, tt.want)
		}
	}
}

func TestApprovalRoundTrips(t *testing.T) {
	t.Parallel()
	m := sample()
	m.Tools[0].Approval = &Approval{When: ApprovalAlways, Reason: "Delete the cache"}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if a := got.Tools[0].Approval; a == nil || *a != *m.Tools[0].Approval {
		t.Errorf("got approval %+v, want %+v", a, m.Tools[0].Approval)
	}
	c := got.Clone()
	c.Tools[0].Approval.Reason = "changed"
	if got.Tools[0].Approval.Reason != "Delete the cache" {
		t.Error("changing a clone's approval changed the original")
	}
	// The embedded JSON Schema refuses what Validate refuses in shape.
	bad := []byte(`{"when":"always","reason":""}`)
	var raw map[string]any
	json.Unmarshal(data, &raw)
	raw["tools"].([]any)[0].(map[string]any)["approval"] = json.RawMessage(bad)
	data, _ = json.Marshal(raw)
	if _, err := Decode(data); err == nil {
		t.Error("Decode accepted an approval with an empty reason")
	}
}

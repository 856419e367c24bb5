package host_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

const whoamiDir = "testdata/mods/whoami"

// TestCallerReachesTheHandler: a call's caller reaches the handler in the
// mod's process whole; a call without one reads the zero Caller.
func TestCallerReachesTheHandler(t *testing.T) {
	t.Parallel()
	h := load(t, nil, whoamiDir)
	ada := &sdk.Caller{Subject: "ada", ClientID: "app-1", Scopes: []string{"notes.write"},
		Claims: map[string]json.RawMessage{"email": json.RawMessage(`"ada@example.com"`), "groups": json.RawMessage(`["staff","ops"]`)}}
	for _, caller := range []*sdk.Caller{ada, host.LocalCaller(nil), host.LocalCaller([]string{"notes.read"}), nil} {
		res, err := h.Call(context.Background(), &host.CallRequest{Tool: "whoami", Session: session(t), Caller: caller})
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, res, host.StatusCompleted)
		var got sdk.Caller
		if err := json.Unmarshal([]byte(res.Text), &got); err != nil {
			t.Fatalf("got %q: %v", res.Text, err)
		}
		want := sdk.Caller{}
		if caller != nil {
			want = *caller
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the handler read %+v, want %+v", got, want)
		}
	}
}

func TestLocalCaller(t *testing.T) {
	t.Parallel()
	all := host.LocalCaller(nil)
	if !strings.HasPrefix(all.Subject, "local:") || len(all.Subject) == len("local:") || !all.Local || !all.AllScopes || !all.HasScope("anything") || all.ClientID != "" {
		t.Errorf("LocalCaller(nil): got %+v, want the local user, holding every scope", all)
	}
	none := host.LocalCaller([]string{})
	if none.AllScopes || none.HasScope("anything") {
		t.Errorf("LocalCaller([]): got %+v, want no scope", none)
	}
	some := host.LocalCaller([]string{"notes.read"})
	if some.AllScopes || !some.HasScope("notes.read") || some.HasScope("notes.write") {
		t.Errorf("LocalCaller([notes.read]): got %+v, want notes.read alone", some)
	}
}

// TestCallerReachesTheApprovalRule: the tool's approval rule, which the
// host asks over gRPC beside the call lane, reads the call's caller.
func TestCallerReachesTheApprovalRule(t *testing.T) {
	t.Parallel()
	h := load(t, nil, whoamiDir)
	for _, caller := range []*sdk.Caller{{Subject: "ada"}, nil} {
		reason := ""
		approver := func(_ context.Context, r *host.ApprovalRequest) (bool, error) {
			reason = r.Reason
			return true, nil
		}
		res, err := h.Call(context.Background(), &host.CallRequest{Tool: "whoami_approved", Session: session(t), Caller: caller, Approver: approver})
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, res, host.StatusCompleted)
		want := "Run for "
		if caller != nil {
			want += caller.Subject
		}
		if reason != want {
			t.Errorf("caller %+v: the approver read %q, want %q", caller, reason, want)
		}
	}
}

package modtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/modkit/modkit/host/testdata/mods/whoami"
	"github.com/modkit/modkit/sdk"
	"github.com/modkit/modkit/sdk/modtest"
)

// callerMod's tool needs approval when its caller lacks the admin scope.
var callerMod = &sdk.Generated{Mod: sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "callers"},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[struct{}]{
			Name: "admin_only", Description: "Runs at once for an admin.", Activity: "Running…",
			Approval: &sdk.Approval[struct{}]{Ask: func(tc *sdk.ToolContext, _ struct{}) (string, error) {
				if tc.Caller().HasScope("admin") {
					return "", nil
				}
				return "Let " + tc.Caller().Subject + " run it", nil
			}},
			Run: func(tc *sdk.ToolContext, _ struct{}) (sdk.Result, error) { return sdk.Text("ran"), nil },
		},
	}},
})}

// TestOptionsCaller: Options.Caller is what the handler's ToolContext.Caller
// and its approval rule's read; without it, the zero Caller.
func TestOptionsCaller(t *testing.T) {
	ada := &sdk.Caller{Subject: "ada", ClientID: "app-1", Scopes: []string{"notes.write"},
		Claims: map[string]json.RawMessage{"email": json.RawMessage(`"ada@example.com"`)}}
	for _, caller := range []*sdk.Caller{ada, nil} {
		out := modtest.Run(t, whoami.Modkit(), "whoami", struct{}{}, &modtest.Options{Caller: caller})
		var got sdk.Caller
		if err := json.Unmarshal([]byte(out.Text), &got); err != nil {
			t.Fatalf("got %q: %v", out.Text, err)
		}
		want := sdk.Caller{}
		if caller != nil {
			want = *caller
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the handler read %+v, want %+v", got, want)
		}
	}

	asked := ""
	approver := func(_ context.Context, r *modtest.ApprovalRequest) (bool, error) {
		asked = r.Reason
		return false, errors.New("no")
	}
	out := modtest.Run(t, callerMod, "admin_only", struct{}{}, &modtest.Options{Caller: &sdk.Caller{Subject: "root", Scopes: []string{"admin"}}, Approver: approver})
	if out.Status != modtest.StatusCompleted || asked != "" {
		t.Errorf("an admin: got %s, asked %q; want it run without asking", out.Status, asked)
	}
	modtest.Call(callerMod, "admin_only", struct{}{}, &modtest.Options{Caller: &sdk.Caller{Subject: "bob"}, Approver: approver})
	if want := "Let bob run it"; asked != want {
		t.Errorf("bob: asked %q, want %q", asked, want)
	}
}

// Options.Caller is who the handler's ToolContext.Caller reads the call
// is made for: here a token's subject with the email claim passed on.
func Example_caller() {
	out, err := modtest.Call(whoami.Modkit(), "whoami", `{}`, &modtest.Options{Caller: &sdk.Caller{
		Subject: "ada", ClientID: "notes-app", Scopes: []string{"notes.read"},
		Claims: map[string]json.RawMessage{"email": json.RawMessage(`"ada@example.com"`)},
	}})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Text)
	// Output:
	// {"subject":"ada","clientId":"notes-app","scopes":["notes.read"],"claims":{"email":"ada@example.com"}}
}

package mcpauth_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/sdk"
)

// TestPrincipalCaller: the caller a handler reads has the token's subject,
// client id and scopes, and of its claims only those passed on that it
// carries; never the token.
func TestPrincipalCaller(t *testing.T) {
	t.Parallel()
	is := mcpauthtest.NewIssuer(t)
	r, err := mcpauth.New(context.Background(), &mcpauth.Options{Issuer: is.URL, Resource: testResource, Claims: []string{"email", "groups", "absent"}})
	if err != nil {
		t.Fatal(err)
	}
	claims := is.Claims(testResource, "notes.read notes.write", time.Now())
	claims["sub"], claims["azp"] = "ada", "app-1"
	delete(claims, "client_id") // azp names the client then
	claims["email"], claims["groups"], claims["private"] = "ada@example.com", []string{"staff"}, "kept back"
	token := is.Sign(t, "ec", claims)
	p, err := r.Verify(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	want := &sdk.Caller{Subject: "ada", ClientID: "app-1", Scopes: []string{"notes.read", "notes.write"},
		Claims: map[string]json.RawMessage{"email": json.RawMessage(`"ada@example.com"`), "groups": json.RawMessage(`["staff"]`)}}
	if !reflect.DeepEqual(p.Caller, want) {
		t.Errorf("got caller %+v, want %+v", p.Caller, want)
	}
	data, _ := json.Marshal(p.Caller)
	if strings.Contains(string(data), token[strings.LastIndex(token, ".")+1:]) || strings.Contains(string(data), "kept back") {
		t.Errorf("the caller %s holds the token or a claim not passed on", data)
	}
}

func TestPrincipalKey(t *testing.T) {
	t.Parallel()
	iss := json.RawMessage(`"https://issuer.example"`)
	for _, tt := range []struct {
		p    mcpauth.Principal
		want string
	}{
		{mcpauth.Principal{Subject: "ada", ClientID: "app-1", Claims: map[string]json.RawMessage{"iss": iss}}, `https://issuer.example sub "ada"`},
		{mcpauth.Principal{Subject: "ada", ClientID: "app-2", Claims: map[string]json.RawMessage{"iss": iss}}, `https://issuer.example sub "ada"`},
		{mcpauth.Principal{ClientID: "app-1", Claims: map[string]json.RawMessage{"iss": iss}}, `https://issuer.example client_id "app-1"`},
		{mcpauth.Principal{Subject: `a" client_id "b`, Claims: map[string]json.RawMessage{"iss": iss}}, `https://issuer.example sub "a\" client_id \"b"`},
	} {
		if got := tt.p.Key(); got != tt.want {
			t.Errorf("%+v: got %s, want %s", tt.p, got, tt.want)
		}
	}
}

func TestNewRefusesBadClaims(t *testing.T) {
	t.Parallel()
	is := mcpauthtest.NewIssuer(t)
	for claims, want := range map[string]string{
		"email,":      "auth: claims to pass on: claim 2 is empty",
		"email,email": `auth: claims to pass on: claim "email" is named twice`,
	} {
		_, err := mcpauth.New(context.Background(), &mcpauth.Options{Issuer: is.URL, Resource: testResource, Claims: strings.Split(claims, ",")})
		if err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %s", claims, err, want)
		}
	}
}

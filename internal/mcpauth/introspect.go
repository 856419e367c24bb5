package mcpauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"
)

// Introspection configures the checking of opaque access tokens by the
// authorization server's introspection endpoint (RFC 7662).
type Introspection struct {
	// URL is the introspection endpoint. Required.
	URL string
	// ClientID and ClientSecret are this resource server's client
	// credentials at the authorization server, sent with HTTP Basic
	// authentication (client_secret_basic). Required.
	ClientID, ClientSecret string
}

// ReadClientCredentials reads a client-credentials file: a JSON object
// {"client_id": "…", "client_secret": "…"}, both non-empty strings, and
// no other member.
func ReadClientCredentials(name string) (*Introspection, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var creds struct {
		ClientID     *string `json:"client_id"`
		ClientSecret *string `json:"client_secret"`
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&creds); err != nil {
		return nil, fmt.Errorf("%s: want a JSON object {\"client_id\": \"…\", \"client_secret\": \"…\"}: %v", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: want one JSON object {\"client_id\": \"…\", \"client_secret\": \"…\"}: more follows it", name)
	}
	switch {
	case creds.ClientID == nil || *creds.ClientID == "":
		return nil, fmt.Errorf("%s: client_id is missing or empty", name)
	case creds.ClientSecret == nil || *creds.ClientSecret == "":
		return nil, fmt.Errorf("%s: client_secret is missing or empty", name)
	}
	return &Introspection{ClientID: *creds.ClientID, ClientSecret: *creds.ClientSecret}, nil
}

// ErrUnavailable is what the error of a token that could not be checked
// wraps: the introspection endpoint did not answer, or not as RFC 7662
// has it. The token may be good; the client should retry.
var ErrUnavailable = errors.New("the authorization server could not check the token")

// introspectionAnswer is the members of an introspection response the
// resource reads (RFC 7662 §2.2).
type introspectionAnswer struct {
	Active    bool             `json:"active"`
	Scope     string           `json:"scope"`
	ClientID  string           `json:"client_id"`
	Subject   string           `json:"sub"`
	Issuer    string           `json:"iss"`
	Audience  jwt.Audience     `json:"aud"`
	Expiry    *jwt.NumericDate `json:"exp"`
	NotBefore *jwt.NumericDate `json:"nbf"`
	TokenType string           `json:"token_type"`
}

// checkIntrospection checks the endpoint and the credentials of in before
// the resource serves: the endpoint must answer a made-up token with
// active false.
func (r *Resource) checkIntrospection(ctx context.Context) error {
	in := r.opts.Introspection
	if err := checkURL(in.URL); err != nil {
		return fmt.Errorf("introspection endpoint: %w", err)
	}
	if in.ClientID == "" || in.ClientSecret == "" {
		return errors.New("introspection: no client id or secret")
	}
	ans, _, err := r.askIntrospection(ctx, "modkit-startup-check-not-a-token")
	if err != nil {
		return err
	}
	if ans.Active {
		return fmt.Errorf("introspection endpoint %s says a made-up token is active", in.URL)
	}
	return nil
}

// introspect checks an opaque token by asking the authorization server.
func (r *Resource) introspect(ctx context.Context, token string, now time.Time) (*Principal, error) {
	ans, all, err := r.askIntrospection(ctx, token)
	if err != nil {
		return nil, err
	}
	switch {
	case !ans.Active:
		return nil, invalid("the authorization server says the token is not active")
	case ans.TokenType != "" && !strings.EqualFold(ans.TokenType, "Bearer"):
		return nil, invalid("the token is a %q token, not a bearer access token", ans.TokenType)
	}
	// RFC 7662 makes iss optional: the endpoint speaks for the issuer.
	iss := ans.Issuer
	if iss == "" {
		iss = r.issuer
	}
	if err := r.checkClaims(iss, ans.Audience, ans.Expiry, ans.NotBefore, now); err != nil {
		return nil, err
	}
	p := &Principal{
		Subject:  ans.Subject,
		ClientID: ans.ClientID,
		Scopes:   strings.Fields(ans.Scope),
		Expiry:   ans.Expiry.Time(),
		Claims:   all,
	}
	if p.Subject == "" {
		// A client credentials grant speaks for its client.
		p.Subject = p.ClientID
	}
	return p, nil
}

// askIntrospection posts token to the introspection endpoint and returns
// its answer, and every member of it.
func (r *Resource) askIntrospection(ctx context.Context, token string) (*introspectionAnswer, map[string]json.RawMessage, error) {
	in := r.opts.Introspection
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: introspection endpoint %s: %s", ErrUnavailable, in.URL, fmt.Sprintf(format, args...))
	}
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, in.URL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, nil, fail("%v", err)
	}
	// RFC 6749 §2.3.1: the id and secret are form-encoded, then sent as
	// Basic credentials.
	req.SetBasicAuth(url.QueryEscape(in.ClientID), url.QueryEscape(in.ClientSecret))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := r.opts.Client.Do(req)
	if err != nil {
		return nil, nil, fail("%v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		hint := ""
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			hint = " (are the client credentials right?)"
		}
		return nil, nil, fail("%s%s", resp.Status, hint)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	if err != nil {
		return nil, nil, fail("%v", err)
	}
	if len(data) > maxDocument {
		return nil, nil, fail("the answer exceeds %d bytes", maxDocument)
	}
	var ans introspectionAnswer
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil || all == nil {
		return nil, nil, fail("the answer is not a JSON object")
	}
	if _, ok := all["active"]; !ok {
		return nil, nil, fail("the answer has no active member")
	}
	if err := json.Unmarshal(data, &ans); err != nil {
		return nil, nil, fail("the answer does not read as RFC 7662's: %v", err)
	}
	delete(all, "active")
	return &ans, all, nil
}

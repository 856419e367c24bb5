package mcpbridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/audit"
	"github.com/modkit/modkit/internal/mcpauth"
	"github.com/modkit/modkit/internal/mcpauth/mcpauthtest"
	"github.com/modkit/modkit/internal/testenv"
	"github.com/modkit/modkit/internal/testserver"
)

// TestReplicasShareLimitsAndAudit runs three modhost mcp --http replicas
// behind one authorization server, sharing one Redis: a principal's rate
// limit is one bucket across them, another principal has a bucket of its
// own, and each replica's audit log names it on every line.
func TestReplicasShareLimitsAndAudit(t *testing.T) {
	t.Parallel()
	redis := testserver.StartRedis(t)
	is := mcpauthtest.NewIssuer(t)
	const resource = "https://mcp.example/mcp"
	fixture, err := filepath.Abs(filepath.Join("testdata", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	ws, logs := t.TempDir(), t.TempDir()
	token := func(sub string) string {
		claims := is.Claims(resource, "", time.Now())
		claims["sub"] = sub
		return is.Sign(t, "ec", claims)
	}
	type replica struct {
		name, url, log string
		cmd            *exec.Cmd
	}
	var replicas []*replica
	for i := range 3 {
		r := &replica{name: fmt.Sprintf("r%d", i+1)}
		r.log = filepath.Join(logs, r.name+".jsonl")
		r.cmd = exec.Command(modhostBinary(t), "--mods", fixture, "--workspace", ws, "mcp",
			"--http", fmt.Sprintf("127.0.0.1:%d", testserver.FreePort(t)), "--store", redis.URL(),
			"--auth-issuer", is.URL, "--resource", resource, "--rate-limit", "2/s",
			"--audit-log", r.log, "--replica", r.name, "--drain", "0s")
		r.cmd.Env = append(os.Environ(), "MODKIT_CACHE="+cacheDir)
		r.url = testenv.ServeURL(t, r.cmd, "serving MCP at ")
		// Start the fixture mod before the calls counted, as a principal
		// of the replica's own.
		if status, body := greetAs(t, r.url, token("warm-"+r.name)); status != http.StatusOK {
			t.Fatalf("%s: warm-up call: %d %s", r.name, status, body)
		}
		replicas = append(replicas, r)
	}

	// Six calls by alice, round the replicas: the shared bucket lets the
	// burst of 2 through, and 2 a second after; each replica alone would
	// let 2 through, 6 in all.
	alice := token("alice")
	allowed, refused := 0, 0
	start := time.Now()
	for i := range 6 {
		switch status, body := greetAs(t, replicas[i%3].url, alice); status {
		case http.StatusOK:
			allowed++
		case http.StatusTooManyRequests:
			refused++
		default:
			t.Fatalf("alice's call %d: got %d %s, want 200 or 429", i+1, status, body)
		}
	}
	refilled := int(time.Since(start).Seconds()*2) + 1
	if allowed < 2 || allowed > 2+refilled {
		t.Errorf("alice: allowed %d of 6 across three replicas, want the shared burst of 2 (and at most %d refilled)", allowed, refilled)
	}
	// Bob's bucket is his own.
	if status, body := greetAs(t, replicas[0].url, token("bob")); status != http.StatusOK {
		t.Errorf("bob's call: got %d %s, want 200", status, body)
	}

	// Stopped, each replica has written every record.
	for _, r := range replicas {
		r.cmd.Process.Signal(syscall.SIGTERM)
		r.cmd.Wait()
	}
	counts := map[string]int{}
	for _, r := range replicas {
		data, err := os.ReadFile(r.log)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := audit.ReadRecords(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s's audit log: %v", r.name, err)
		}
		aliceHere := 0
		for _, rec := range recs {
			if rec.Replica != r.name {
				t.Errorf("%s's audit log has a record of replica %q: %+v", r.name, rec.Replica, rec)
			}
			if rec.Principal.Sub == "alice" {
				aliceHere++
				counts[rec.Outcome]++
				if rec.Outcome == audit.Refused && rec.Status != http.StatusTooManyRequests {
					t.Errorf("%s: alice's refused call has status %d, want 429", r.name, rec.Status)
				}
			}
		}
		if aliceHere != 2 {
			t.Errorf("%s's audit log has %d of alice's calls, want 2 (one of every three)", r.name, aliceHere)
		}
	}
	if counts[audit.Completed] != allowed || counts[audit.Refused] != refused {
		t.Errorf("alice's records: got %v, want %d completed and %d refused", counts, allowed, refused)
	}
}

// greetAs calls the fixture's greet tool at url with the bearer token,
// statelessly, and returns the HTTP status and body.
func greetAs(t *testing.T, url, token string) (int, []byte) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
		"name": "greet", "arguments": map[string]any{"name": "x"},
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": map[string]any{}},
	}})
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "greet")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	out.ReadFrom(resp.Body)
	return resp.StatusCode, out.Bytes()
}

// TestIntrospectionServed: modhost mcp --http with --auth-introspection
// serves a client holding an opaque token of oidc-provider, which it
// checks at the provider's introspection endpoint with the credentials of
// --auth-client-file, and refuses a token the provider does not know.
func TestIntrospectionServed(t *testing.T) {
	t.Parallel()
	const resource = "https://mcp.example/mcp"
	issuer := mcpauthtest.StartOpaqueOIDCProvider(t, resource)
	fixture, err := filepath.Abs(filepath.Join("testdata", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	creds := filepath.Join(t.TempDir(), "client.json")
	if err := os.WriteFile(creds, []byte(`{"client_id": "modhost", "client_secret": "modhost-secret"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(modhostBinary(t), "--mods", fixture, "--workspace", t.TempDir(), "mcp",
		"--http", fmt.Sprintf("127.0.0.1:%d", testserver.FreePort(t)), "--drain", "0s",
		"--auth-issuer", issuer, "--resource", resource,
		"--auth-introspection", issuer+"/token/introspection", "--auth-client-file", creds)
	cmd.Env = append(os.Environ(), "MODKIT_CACHE="+cacheDir)
	url := testenv.ServeURL(t, cmd, "serving MCP at ")
	token := mcpauthtest.ClientCredentials(t, issuer, "reader", "reader-secret", resource, "notes.read")
	if status, body := greetAs(t, url, token); status != http.StatusOK || !bytes.Contains(body, []byte(`"result"`)) {
		t.Errorf("the opaque token: got %d %s, want 200 with a result", status, body)
	}
	status, body := greetAs(t, url, token+"x")
	if status != http.StatusUnauthorized || !bytes.Contains(body, []byte("not active")) {
		t.Errorf("an unknown token: got %d %s, want 401 saying it is not active", status, body)
	}
}

// oidcResource is the resource of the oidc-provider tests.
const oidcResource = "https://mcp.example/mcp"

// TestIntrospectionOIDCProvider checks opaque tokens of a real
// authorization server, panva's oidc-provider, by its introspection
// endpoint.
func TestIntrospectionOIDCProvider(t *testing.T) {
	issuer := mcpauthtest.StartOpaqueOIDCProvider(t, oidcResource)
	r, err := mcpauth.New(context.Background(), &mcpauth.Options{Issuer: issuer, Resource: oidcResource,
		Introspection: &mcpauth.Introspection{URL: issuer + "/token/introspection", ClientID: "modhost", ClientSecret: "modhost-secret"}})
	if err != nil {
		t.Fatal(err)
	}
	token := mcpauthtest.ClientCredentials(t, issuer, "writer", "writer-secret", oidcResource, "notes.read notes.write")
	if strings.Count(token, ".") == 2 {
		t.Fatalf("oidc-provider issued a JWT %q, want an opaque token", token[:20])
	}
	p, err := r.Verify(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	if p.Subject != "writer" || p.ClientID != "writer" || !slices.Contains(p.Scopes, "notes.write") || time.Until(p.Expiry) <= 0 {
		t.Errorf("got %+v, want the writer with notes.write, not expired", p)
	}
	if _, err := r.Verify(context.Background(), token+"x"); !errors.Is(err, mcpauth.ErrInvalidToken) || !strings.Contains(err.Error(), "not active") {
		t.Errorf("an unknown token: got %v, want it refused as not active", err)
	}
	_, err = mcpauth.New(context.Background(), &mcpauth.Options{Issuer: issuer, Resource: oidcResource,
		Introspection: &mcpauth.Introspection{URL: issuer + "/token/introspection", ClientID: "modhost", ClientSecret: "wrong"}})
	if err == nil || !strings.Contains(err.Error(), "client credentials") {
		t.Errorf("wrong client secret: got %v, want New to fail naming the client credentials", err)
	}
}

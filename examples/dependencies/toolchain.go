package dependencies

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/modkit/modkit/sdk"
)

// toolchain says which Go toolchain builds the workspace: the go command's
// own answer, run in the workspace with GOTOOLCHAIN=local, so that nothing
// is downloaded. It is the one thing this mod runs a program for, and why
// it declares the go command and the Go root in its permissions.
func toolchain(ctx context.Context, env *sdk.Env, _ json.RawMessage) (string, error) {
	dir := env.Session.Workspace
	if dir == "" {
		return "", errors.New("the session has no workspace")
	}
	cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("go env GOVERSION: %w: %s", err, msg)
		}
		return "", fmt.Errorf("go env GOVERSION: %w", err)
	}
	return "The workspace builds with " + strings.TrimSpace(string(out)) + ".", nil
}

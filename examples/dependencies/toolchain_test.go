package dependencies

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/modkit/modkit/sdk"
)

func TestToolchain(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	msg, err := toolchain(context.Background(), &sdk.Env{Session: sdk.Session{Workspace: t.TempDir()}}, nil)
	if err != nil || !strings.HasPrefix(msg, "The workspace builds with go1.") {
		t.Errorf("got %q, %v; want the toolchain's version", msg, err)
	}
	if _, err := toolchain(context.Background(), &sdk.Env{}, nil); err == nil {
		t.Error("no workspace: got no error")
	}
}

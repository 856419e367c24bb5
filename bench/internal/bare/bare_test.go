package bare_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/modkit/modkit/bench/internal/bare"
	"github.com/modkit/modkit/bench/internal/echo"
	"github.com/modkit/modkit/internal/testenv"
)

// buildPlugin returns the bare plugin built from this checkout, once per
// change of its sources for every package's tests.
func buildPlugin(t *testing.T) string {
	t.Helper()
	return testenv.Program(t, "github.com/modkit/modkit/bench/internal/bare/bareplugin")
}

func TestEcho(t *testing.T) {
	path := buildPlugin(t)
	sum, err := bare.Checksum(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := bare.Start(path, sum)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Pid() <= 0 {
		t.Errorf("Pid: got %d, want a process id", p.Pid())
	}
	got, err := p.Echo(context.Background(), echo.Payload)
	if err != nil {
		t.Fatal(err)
	}
	var in echo.Input
	if err := json.Unmarshal(echo.Payload, &in); err != nil {
		t.Fatal(err)
	}
	want, _ := echo.Reply(in)
	if got != want {
		t.Errorf("Echo: got %q, want %q", got, want)
	}
	if _, err := p.Echo(context.Background(), []byte(`{"count":"many"}`)); err == nil {
		t.Error("Echo of a malformed input: got no error, want one")
	}
}

func TestStartRefusesWrongChecksum(t *testing.T) {
	path := buildPlugin(t)
	sum, err := bare.Checksum(path)
	if err != nil {
		t.Fatal(err)
	}
	sum[0] ^= 0xff
	p, err := bare.Start(path, sum)
	if err == nil {
		p.Close()
		t.Fatal("Start with a wrong checksum: got no error, want one")
	}
}

func TestChecksumMissingFile(t *testing.T) {
	if _, err := bare.Checksum(filepath.Join(t.TempDir(), "none")); !os.IsNotExist(err) {
		t.Errorf("Checksum of a missing file: got %v, want not-exist", err)
	}
}

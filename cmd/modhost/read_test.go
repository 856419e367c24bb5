package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadPromptExitCodes checks read's and prompt's exit codes: 2 for
// what the command line got wrong, 1 for what the mod refused.
func TestReadPromptExitCodes(t *testing.T) {
	t.Parallel()
	mods, err := filepath.Abs("../../internal/mcpbridge/testdata/conformance")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"read", "test://static-text"}, exitOK},
		{[]string{"read", "test://nothing"}, exitUsage},
		{[]string{"read", "test://template/missing/data"}, exitFailed},
		{[]string{"read", "test://template/{id}/data", "name=x"}, exitUsage},
		{[]string{"read", "test://template/{id}/data", "id"}, exitUsage},
		{[]string{"read", "test://template/{id}/data"}, exitUsage},
		{[]string{"read", "--out", filepath.Join(t.TempDir(), "no", "such", "dir"), "test://static-text"}, exitFailed},
		{[]string{"read"}, exitUsage},
		{[]string{"prompt", "test_simple_prompt"}, exitOK},
		{[]string{"prompt", "test_prompt_with_argument"}, exitUsage},
		{[]string{"prompt", "test_prompt_with_arguments", "arg1=x"}, exitUsage},
		{[]string{"prompt", "test_simple_prompt", "tone=dry"}, exitUsage},
		{[]string{"prompt"}, exitUsage},
	}
	for _, tt := range tests {
		var stdout, stderr strings.Builder
		got := run(context.Background(), append([]string{"--mods", mods}, tt.args...), strings.NewReader(""), &stdout, &stderr)
		if got != tt.want {
			t.Errorf("modhost %s: got exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(tt.args, " "), got, tt.want, stdout.String(), stderr.String())
		}
	}
}

package sdk_test

import (
	"slices"
	"testing"

	"github.com/modkit/modkit/manifest"
	"github.com/modkit/modkit/sdk"
)

func TestHostActionsMatchManifest(t *testing.T) {
	got := []string{sdk.ActionToolCall, sdk.ActionCommandRun}
	if !slices.Equal(got, manifest.HostActions()) {
		t.Errorf("got sdk host actions %q, want manifest.HostActions %q", got, manifest.HostActions())
	}
}

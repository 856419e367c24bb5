package goplugin_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/modkit/modkit/internal/protocol/goplugin"
)

func TestHCLogger(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	l := goplugin.HCLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo})))
	l.Named("plugin").With("mod", "m1").Error("boom", "code", 3)
	l.Debug("hidden")
	got := buf.String()
	for _, want := range []string{"level=ERROR", "msg=boom", "mod=m1", "code=3", "logger=plugin"} {
		if !strings.Contains(got, want) {
			t.Errorf("got %q, want it to contain %q", got, want)
		}
	}
	if strings.Contains(got, "hidden") {
		t.Errorf("got %q, want debug dropped at info", got)
	}
	if l.IsDebug() || !l.IsInfo() || l.GetLevel() != hclog.Info {
		t.Errorf("got IsDebug %v IsInfo %v level %v, want info", l.IsDebug(), l.IsInfo(), l.GetLevel())
	}
}

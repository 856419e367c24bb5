package protocol_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/sdk"
)

func TestActivityRoundTrip(t *testing.T) {
	t.Parallel()
	for _, kind := range []sdk.ActivityKind{sdk.ActivityTitle, sdk.ActivityStatus, sdk.ActivityLog} {
		u := sdk.ActivityUpdate{Kind: kind, Text: "text of " + string(kind)}
		if got := protocol.ActivityFromProto(protocol.ActivityToProto(u)); got != u {
			t.Errorf("got %+v, want %+v", got, u)
		}
	}
	// An unknown kind becomes an update the activity rules ignore.
	got := protocol.ActivityFromProto(protocol.ActivityToProto(sdk.ActivityUpdate{Kind: "sparkle", Text: "x"}))
	var s sdk.ActivityState
	if _, ok := modapi.Apply(&s, got); ok {
		t.Errorf("got an accepted update %+v from an unknown kind, want it ignored", got)
	}
}

func TestOutcomeRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   modapi.Outcome
		want modapi.Outcome
	}{
		{"completed with outputs in order",
			modapi.Outcome{Status: modapi.StatusCompleted, Text: "t", Result: json.RawMessage(`{"a":1}`), Outputs: []sdk.Output{
				{MimeType: "text/plain", Content: "a"}, {MimeType: "text/markdown", Content: "b", URI: "file:///b.md"}}},
			modapi.Outcome{Status: modapi.StatusCompleted, Text: "t", Result: json.RawMessage(`{"a":1}`), Outputs: []sdk.Output{
				{MimeType: "text/plain", Content: "a"}, {MimeType: "text/markdown", Content: "b", URI: "file:///b.md"}}}},
		{"completed, nothing else", modapi.Outcome{Status: modapi.StatusCompleted}, modapi.Outcome{Status: modapi.StatusCompleted}},
		{"invalid input", modapi.Outcome{Status: modapi.StatusFailed, Error: "invalid input: /a: x", Problems: []string{"/a: x"}, Cause: errTest{}},
			modapi.Outcome{Status: modapi.StatusFailed, Error: "invalid input: /a: x", Problems: []string{"/a: x"}}},
		{"failed drops the result", modapi.Outcome{Status: modapi.StatusFailed, Error: "e", Text: "t"},
			modapi.Outcome{Status: modapi.StatusFailed, Error: "e"}},
	}
	for _, tt := range tests {
		got := protocol.OutcomeFromProto(protocol.OutcomeToProto(&tt.in))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestSessionRoundTrip(t *testing.T) {
	t.Parallel()
	s := sdk.Session{ID: "s1", Workspace: "/w"}
	if got := protocol.SessionFromProto(protocol.SessionToProto(s)); got != s {
		t.Errorf("got %+v, want %+v", got, s)
	}
}

func TestJSONLogHandler(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(protocol.NewJSONLogHandler(&buf, slog.LevelDebug))
	log.With("tool", "t1").WithGroup("req").Warn("slow", "ms", 12, "err", errTest{})
	log.Debug("details")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2:\n%s", len(lines), buf.String())
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"@level": "warn", "@message": "slow", "tool": "t1", "req.ms": float64(12), "req.err": "test error"}
	for k, v := range want {
		if first[k] != v {
			t.Errorf("%s: got %v, want %v", k, first[k], v)
		}
	}
	if _, ok := first["@timestamp"]; !ok {
		t.Error("no @timestamp")
	}
	// hclog, which go-plugin uses to parse the lines, reads the level.
	var second map[string]any
	json.Unmarshal([]byte(lines[1]), &second)
	if got := hclog.LevelFromString(second["@level"].(string)); got != hclog.Debug {
		t.Errorf("got level %v, want debug", got)
	}

	buf.Reset()
	quiet := slog.New(protocol.NewJSONLogHandler(&buf, slog.LevelWarn))
	quiet.Info("dropped")
	if buf.Len() != 0 {
		t.Errorf("got %q below the level, want nothing", buf.String())
	}
}

type errTest struct{}

func (errTest) Error() string { return "test error" }

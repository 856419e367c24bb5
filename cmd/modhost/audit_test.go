package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modkit/modkit/internal/audit"
)

// readAudit reads back the records of an audit log file.
func readAudit(t *testing.T, name string) []audit.Record {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := audit.ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestAuditCLI(t *testing.T) {
	t.Parallel()
	mods := crashyDir(t)
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	runs := [][]string{
		{"call", "--audit-log", log, "--audit-arguments", "--replica", "laptop", "crashy_echo", `{"text":"x"}`},
		{"call", "--audit-log", log, "--replica", "laptop", "crashy_fail"},
		{"command", "--audit-log", log, "--replica", "laptop", "crashy.hello", `{"to":"you"}`},
	}
	for _, args := range runs {
		var stdout, stderr strings.Builder
		run(context.Background(), append([]string{"--mods", mods}, args...), strings.NewReader(""), &stdout, &stderr)
	}
	recs := readAudit(t, log)
	local := audit.LocalPrincipal()
	want := []audit.Record{
		{Principal: local, Transport: audit.CLI, Method: "tools/call", Tool: "crashy_echo", ArgumentsSHA256: sha256Hex(`{"text":"x"}`), Arguments: json.RawMessage(`{"text":"x"}`), Outcome: audit.Completed, Replica: "laptop"},
		{Principal: local, Transport: audit.CLI, Method: "tools/call", Tool: "crashy_fail", ArgumentsSHA256: sha256Hex(`{}`), Outcome: audit.Failed, Replica: "laptop"},
		{Principal: local, Transport: audit.CLI, Method: "command", Command: "crashy.hello", ArgumentsSHA256: sha256Hex(`{"to":"you"}`), Outcome: audit.Completed, Replica: "laptop"},
	}
	if len(recs) != len(want) {
		t.Fatalf("got %d records, want %d: %+v", len(recs), len(want), recs)
	}
	for i, w := range want {
		got := recs[i]
		if got.Time.IsZero() {
			t.Errorf("record %d: no time", i)
		}
		got.Time, got.DurationMS = w.Time, 0
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(w)
		if !bytes.Equal(gj, wj) {
			t.Errorf("record %d:\ngot  %s\nwant %s", i, gj, wj)
		}
	}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

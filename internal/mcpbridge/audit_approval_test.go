package mcpbridge_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/internal/audit"
	"github.com/modkit/modkit/internal/mcpbridge"
)

// TestAuditApproval: the record of a call that asks for approval carries
// the person's answer, asked by elicitation (2025-11-25) or answered in a
// second request (the newest revision, whose first ends asking).
func TestAuditApproval(t *testing.T) {
	t.Parallel()
	h := loadHost(t, approvingDir)
	for _, version := range []string{"", "2025-11-25"} {
		for _, tt := range []struct{ action, outcome, decision string }{
			{"accept", audit.Completed, audit.Approved},
			{"decline", audit.Denied, audit.Declined},
			{"cancel", audit.Denied, audit.Dismissed},
		} {
			t.Run(tt.action+" "+version, func(t *testing.T) {
				file := filepath.Join(t.TempDir(), "audit.jsonl")
				log, err := audit.Open(file, nil)
				if err != nil {
					t.Fatal(err)
				}
				p := &person{action: tt.action}
				cs := connectVersionWith(t, h, &mcpbridge.Options{Audit: log}, &mcp.ClientOptions{ElicitationHandler: p.elicit}, version)
				if _, err := cs.CallTool(callCtx(t), &mcp.CallToolParams{Name: "approving_guarded", Arguments: jsonArgs(t, `{"reason":"Do it"}`)}); err != nil {
					t.Fatal(err)
				}
				log.Close()
				f, err := os.Open(file)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				recs, err := audit.ReadRecords(f)
				if err != nil {
					t.Fatal(err)
				}
				if len(recs) == 0 {
					t.Fatal("no record")
				}
				if version == "" {
					if first := recs[0]; len(recs) != 2 || first.Outcome != audit.Asking || first.Approval == nil || first.Approval.Decision != audit.Pending {
						t.Fatalf("got %+v, want a first call asking, its approval pending, then the call again", recs)
					}
				}
				last := recs[len(recs)-1]
				if last.Outcome != tt.outcome || last.Approval == nil || last.Approval.Decision != tt.decision || last.Approval.Reason != "Do it" {
					t.Errorf("got outcome %s, approval %+v; want %s, %s of Do it", last.Outcome, last.Approval, tt.outcome, tt.decision)
				}
			})
		}
	}
}

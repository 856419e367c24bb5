// Package approval is the one shape of an approver: who answers for the
// person when a tool's approval rule says a call needs approval. The host
// (host.Approver, host.ApprovalRequest) and sdk/modtest (modtest.Approver,
// modtest.ApprovalRequest) re-export these types by alias, so an approver
// written for one runs under the other, and the embedding applications
// (modhost's terminal prompt, the workbench's page) implement the same
// function.
//
// The approval rule itself is the mod's (modapi.ApprovalRule); what a
// verdict does to a call is internal/callflow's.
package approval

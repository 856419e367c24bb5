package build

import (
	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/manifest"
)

// approval is a tool's approval rule as the manifest records it.
func approval(a *load.Approval) *manifest.Approval {
	if a.ByInput {
		return &manifest.Approval{When: manifest.ApprovalByInput}
	}
	return &manifest.Approval{When: manifest.ApprovalAlways, Reason: a.Reason.Value}
}

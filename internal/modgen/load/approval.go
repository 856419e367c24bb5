package load

import (
	"go/ast"
	"go/token"
)

// Approval is a tool's declared sdk.Approval.
type Approval struct {
	Pos token.Pos
	// Reason is the constant reason of a tool whose every call needs
	// approval.
	Reason Str
	// ByInput is set when an Ask function decides per call.
	ByInput bool
}

// approval reads an sdk.Approval literal: a constant Reason, or an Ask
// function, not both.
func (r *reader) approval(e ast.Expr) *Approval {
	a := &Approval{Pos: e.Pos()}
	cl, ok := r.lit(e, "tool Approval")
	if !ok {
		return a
	}
	hasReason := false
	r.read(cl, "tool Approval ", fields{
		"Reason": func(v ast.Expr, what string) { a.Reason, hasReason = r.str(v, what), true },
		"Ask":    r.handler(&a.ByInput),
	})
	switch {
	case a.ByInput && hasReason:
		r.errorf(cl.Pos(), "tool Approval sets both Reason and Ask: set Reason when every call needs approval, Ask when the input decides")
	case !a.ByInput && !a.Reason.Bad && a.Reason.Value == "":
		r.errorf(cl.Pos(), "tool Approval needs a Reason (every call needs approval) or an Ask function (the input decides)")
	}
	return a
}

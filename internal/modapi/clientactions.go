package modapi

import (
	"github.com/modkit/modkit/internal/words"
)

// BadAction is the failure of a call of tool whose client action i (from
// 0), of kind, is wrong; why says how.
func BadAction(tool string, i int, kind, why string) string {
	return words.BadAction(tool, i, kind, why)
}

// UndeclaredAction says why an action of a kind the tool does not
// declare is wrong; declared are the kinds it does.
func UndeclaredAction(declared []string) string { return words.UndeclaredAction(declared) }

// InvalidParams says why an action with problems in its parameters is
// wrong.
func InvalidParams(problems []string) string { return words.InvalidParams(problems) }

package modapi

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/modkit/modkit/internal/limits"
	"github.com/modkit/modkit/internal/words"
)

// BadAction is the failure of a call of tool whose client action i (from
// 0), of kind, is wrong; why says how.
func BadAction(tool string, i int, kind, why string) string {
	return fmt.Sprintf("tool %s returned client action %d (%s): %s", tool, i, strconv.Quote(words.Echo(kind)), why)
}

// UndeclaredAction says why an action of a kind the tool does not
// declare is wrong; declared are the kinds it does.
func UndeclaredAction(declared []string) string {
	if len(declared) == 0 {
		return "the tool declares no client actions"
	}
	quoted := make([]string, len(declared))
	for i, k := range declared {
		quoted[i] = strconv.Quote(k)
	}
	return "the tool declares no such kind (it declares " + strings.Join(quoted, ", ") + ")"
}

// InvalidParams says why an action with problems in its parameters is
// wrong.
func InvalidParams(problems []string) string {
	if len(problems) == 1 {
		return "invalid params: " + limits.Cut(problems[0], limits.MaxProblemBytes)
	}
	return words.Message("invalid params:", problems)
}

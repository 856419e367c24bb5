package host

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/modkit/modkit/internal/limits"
)

// maxNumberText is the most characters of a number the host's own schema
// check accepts: the schema library's exact arithmetic on a number of a
// million digits takes seconds, and no tool input needs one.
const maxNumberText = 1000

// longNumbers returns a problem for each number in v, a value decoded with
// UseNumber, written with more than maxNumberText characters, sorted by
// path and capped as limits.Problems caps.
func longNumbers(v any) []string {
	var problems []string
	var walk func(v any, path func() string)
	walk = func(v any, path func() string) {
		switch v := v.(type) {
		case json.Number:
			if len(v) > maxNumberText {
				problems = append(problems, fmt.Sprintf("%s: number written with %d characters, more than the %d accepted", pointer(path()), len(v), maxNumberText))
			}
		case []any:
			for i, item := range v {
				walk(item, func() string { return path() + "/" + strconv.Itoa(i) })
			}
		case map[string]any:
			for k, item := range v {
				walk(item, func() string { return child(path(), k) })
			}
		}
	}
	walk(v, func() string { return "" })
	sort.Strings(problems)
	return limits.Problems(problems, 0)
}

package jsoncheck_test

import (
	"fmt"

	"github.com/modkit/modkit/sdk/jsoncheck"
)

// A generated validator walks the input once and reports every problem by
// JSON path. This one checks {"limit": integer at most 50}.
func Example() {
	c := jsoncheck.New([]byte(`{"limit": 80, "extra": true}`))
	defer c.Release()
	switch c.Kind() {
	case jsoncheck.Object:
		c.Enter()
		for c.Next() {
			switch string(c.Key()) {
			case "limit":
				if n := c.Int(); n.Cmp("50") > 0 {
					c.Report("must be at most 50, got %s", n)
				}
			default:
				c.Unknown(`"limit"`)
			}
		}
	default:
		c.WrongType("an object")
	}
	c.End()
	fmt.Println(c.Err())
	// Output:
	// invalid input:
	//   /limit: must be at most 50, got 80
	//   /: unknown property "extra" (allowed: "limit")
}

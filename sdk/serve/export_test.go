package serve

import (
	"github.com/hashicorp/go-plugin"

	"github.com/modkit/modkit/sdk"
)

// ServeTest serves g in the current process for tests.
func ServeTest(g *sdk.Generated, opts *Options, test *plugin.ServeTestConfig) error {
	return serve(g, opts, test)
}

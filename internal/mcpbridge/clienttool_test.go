package mcpbridge

import (
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/manifest"
)

// An MCP client is offered the tools a mod runs, those that run either
// way included, and not those only a client application runs.
func TestListToolsLeavesOutClientTools(t *testing.T) {
	t.Parallel()
	tool := func(name string, runs manifest.Runs) host.Tool {
		mt := manifestTool(name, `{"type":"object"}`)
		mt.Runs = runs
		return host.Tool{Mod: "m", Tool: mt}
	}
	b := &fakeBackend{tools: []host.Tool{
		tool("m_client", manifest.RunsInClient),
		tool("m_either", manifest.RunsEither),
		tool("m_mod", manifest.RunsInMod),
	}}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := connectServer(t, srv).ListTools(t.Context(), &mcp.ListToolsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tl := range res.Tools {
		got = append(got, tl.Name)
	}
	if want := []string{"m_either", "m_mod"}; !slices.Equal(got, want) {
		t.Errorf("got tools %v, want %v", got, want)
	}
}

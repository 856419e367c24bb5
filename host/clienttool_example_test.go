package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

func ExampleHost_HandleClientTool() {
	h, err := host.Load([]string{"testdata/mods/clientside"}, &host.Options{CacheDir: cacheDir, Progress: io.Discard})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	// The application shows the choices to the person and answers with
	// the one picked: here, always the first.
	err = h.HandleClientTool("clientside_pick", func(c *host.ClientCall) {
		var in struct{ Choices []string }
		if err := json.Unmarshal(c.Input, &in); err != nil {
			c.Reply(sdk.ClientAnswer{Error: err.Error()})
			return
		}
		c.Reply(sdk.ClientAnswer{Text: "The person picked " + in.Choices[0] + "."})
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool: "clientside_pick", Input: json.RawMessage(`{"choices":["tea","coffee"]}`),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, res.Text)
	// Output:
	// completed The person picked tea.
}

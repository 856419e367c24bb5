// Command embedder calls the monthago mod through a host it embeds, as a
// program written a month before the API check did.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

func main() {
	h, err := host.Load([]string{".."}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer h.Close()
	wd, _ := os.Getwd()
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool:    "monthago_greet",
		Input:   []byte(`{"name":"Ada"}`),
		Session: sdk.Session{Workspace: wd},
		CallID:  "greet-1",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(res.Label, res.Text)
}

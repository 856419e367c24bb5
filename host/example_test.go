package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

func ExampleLoad() {
	h, err := host.Load([]string{"testdata/mods/quick"}, &host.Options{CacheDir: cacheDir, Progress: io.Discard})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	// Listing reads manifests only: no mod process starts.
	tools, _ := h.Tools("")
	for _, t := range tools {
		fmt.Println(t.Mod, t.Name)
	}
	// Output:
	// quick quick_activity
	// quick quick_echo
}

func ExampleHost_Call() {
	h, err := host.Load([]string{"testdata/mods/quick"}, &host.Options{CacheDir: cacheDir, Progress: io.Discard})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	wd, _ := os.Getwd()
	res, err := h.Call(context.Background(), &host.CallRequest{
		Tool:    "quick_activity",
		Input:   json.RawMessage(`{"logs":2}`),
		Session: sdk.Session{ID: "demo", Workspace: wd},
		OnActivity: func(e host.ActivityEvent) {
			fmt.Println(e.Update.Kind, e.Seq, e.Update.Text)
		},
	})
	if err != nil {
		fmt.Println(err) // unknown tool, not allowed, or closed
		return
	}
	fmt.Println(res.Status, res.Text)

	res, _ = h.Call(context.Background(), &host.CallRequest{
		Tool: "quick_activity", Input: json.RawMessage(`{"logs":"many"}`), Session: sdk.Session{Workspace: wd},
	})
	fmt.Println(res.Status, res.Text)
	// Output:
	// title 0 Working
	// log 1 step 1
	// log 2 step 2
	// status 0 done
	// completed ok
	// failed Tool failed: invalid input for tool quick_activity:
	//   /logs: must be an integer, got a string
}

package mcpbridge

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// TestProgressCoalesced floods a call with status updates: the client gets
// at most one progress notification per ProgressInterval, and the latest
// update last.
func TestProgressCoalesced(t *testing.T) {
	t.Parallel()
	const updates = 5000
	var elapsed time.Duration
	b := &fakeBackend{
		tools: []host.Tool{{Mod: "m", Tool: manifestTool("flood", `{"type":"object"}`)}},
		call: func(ctx context.Context, req *host.CallRequest) *host.CallResult {
			start := time.Now()
			req.OnActivity(host.ActivityEvent{Update: sdk.ActivityUpdate{Kind: sdk.ActivityTitle, Text: "Flood"}})
			for i := 1; i <= updates; i++ {
				req.OnActivity(host.ActivityEvent{Update: sdk.ActivityUpdate{Kind: sdk.ActivityStatus, Text: "update " + strconv.Itoa(i)}})
			}
			elapsed = time.Since(start)
			return &host.CallResult{Tool: req.Tool, Status: host.StatusCompleted, Text: "done", Result: []byte(`{}`)}
		},
	}
	srv, err := NewServer(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, req.Params.Message)
			mu.Unlock()
		},
	}).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "flood", Arguments: map[string]any{}}
	params.SetProgressToken("p")
	if _, err := cs.CallTool(t.Context(), params); err != nil {
		t.Fatal(err)
	}
	// The notifications precede the response, but the client handles them
	// on their own goroutines: wait for the latest.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		n, last := len(got), ""
		if n > 0 {
			last = got[n-1]
		}
		mu.Unlock()
		if last == "update "+strconv.Itoa(updates) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the latest update never arrived; got %d notifications, last %q", n, last)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if max := 2 + int(elapsed/ProgressInterval); len(got) > max {
		t.Errorf("%d updates in %v: got %d notifications, want at most %d", updates, elapsed, len(got), max)
	}
	if got[0] != "Flood" {
		t.Errorf("first notification: got %q, want the title", got[0])
	}
}

package modserver_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
	"github.com/modkit/modkit/sdk"
)

type none struct{}

// watchedServer serves a mod whose tool w_write updates w://a, w://b and
// w://a again, and whose command w.touch updates w://c.
func watchedServer() *modserver.Server {
	g := &sdk.Generated{Mod: sdk.Mod{
		Metadata: sdk.Metadata{ID: "w"},
		AI: sdk.AI{Tools: []sdk.Tool{sdk.PlainTool[none]{Name: "w_write", Run: func(tc *sdk.ToolContext, _ none) (sdk.Result, error) {
			tc.ResourceUpdated("w://a")
			tc.ResourceUpdated("w://b")
			tc.ResourceUpdated("w://a")
			return sdk.Text("ok"), nil
		}}}},
		Commands: []sdk.Command{{ID: "w.touch", Run: func(_ context.Context, env *sdk.Env, _ json.RawMessage) (string, error) {
			env.ResourceUpdated("w://c")
			return "ok", nil
		}}},
	}}
	return modserver.New(g, nil)
}

// TestResourceUpdatesFromToolsAndEnv checks that a tool's and a command's
// updates reach a watcher, each URI once while it waits, in order.
func TestResourceUpdatesFromToolsAndEnv(t *testing.T) {
	srv := watchedServer()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 10)
	watching := make(chan struct{})
	go srv.WatchResources(ctx, func(uri string) { got <- uri })
	// Touch until an update arrives (those made before the watcher
	// exists wait for it).
	go func() {
		for {
			select {
			case <-watching:
				return
			default:
				if _, err := srv.RunCommand(ctx, &modapi.CommandRequest{ID: "w.touch"}); err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	if uri := <-got; uri != "w://c" {
		t.Fatalf("got %s, want w://c", uri)
	}
	close(watching)
	for len(got) > 0 { // drain the touches that raced the watcher
		<-got
	}
	// The watcher may still hold touches not yet delivered; a tool call's
	// updates follow them, in order, each once.
	if _, err := srv.CallTool(ctx, &modapi.CallRequest{Tool: "w_write", Input: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for !slices.Contains(seen, "w://b") {
		if uri := <-got; uri != "w://c" {
			seen = append(seen, uri)
		}
	}
	if !slices.Equal(seen, []string{"w://a", "w://b"}) {
		t.Errorf("got %v, want [w://a w://b]", seen)
	}
}

// TestResourceUpdatesBeforeTheWatcher: a call's updates made before the
// host watches reach its first watcher, each URI once, in order; later
// watchers get only later updates.
func TestResourceUpdatesBeforeTheWatcher(t *testing.T) {
	srv := watchedServer()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := srv.CallTool(ctx, &modapi.CallRequest{Tool: "w_write", Input: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	first, second := make(chan string, 10), make(chan string, 10)
	go srv.WatchResources(ctx, func(uri string) { first <- uri })
	if got := []string{<-first, <-first}; !slices.Equal(got, []string{"w://a", "w://b"}) {
		t.Fatalf("the first watcher got %v, want [w://a w://b]", got)
	}
	go srv.WatchResources(ctx, func(uri string) { second <- uri })
	// Touch until the second watcher hears: it never gets a or b.
	for {
		if _, err := srv.RunCommand(ctx, &modapi.CommandRequest{ID: "w.touch"}); err != nil {
			t.Fatal(err)
		}
		select {
		case uri := <-second:
			if uri != "w://c" {
				t.Fatalf("the second watcher got %s, want w://c", uri)
			}
			return
		case <-time.After(time.Millisecond):
		}
	}
}

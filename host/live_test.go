package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/host/testdata/mods/crashy"
)

// TestLiveSwap swaps the host under a call in flight: the call ends on
// the old host, which closes only then; calls after the swap go to the
// new one.
func TestLiveSwap(t *testing.T) {
	t.Parallel()
	first := loadInProcess(t, nil).Host
	live := host.NewLive(first)
	t.Cleanup(func() { live.Close() })
	updates := make(chan host.ResourceUpdate, 1)
	live.OnResourceUpdated(func(u host.ResourceUpdate) { updates <- u })

	started := filepath.Join(t.TempDir(), "started")
	input, _ := json.Marshal(crashy.WaitInput{Started: started})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		res *host.CallResult
		err error
	}
	inFlight := make(chan outcome, 1)
	go func() {
		res, err := live.Call(ctx, &host.CallRequest{Tool: "crashy_wait", Input: input})
		inFlight <- outcome{res, err}
	}()
	waitForFile(t, started)

	next, err := live.Prepare(context.Background(), func() (*host.Host, error) {
		h, err := host.Load([]string{crashyDir}, &host.Options{CacheDir: cacheDir})
		if err == nil {
			err = host.RunInProcess(h, crashy.Modkit())
		}
		return h, err
	}, []string{crashyDir})
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	done, err := live.Swap(next)
	if err != nil {
		t.Fatalf("Swap: %v", err)
	}
	if got := live.Host(); got != next {
		t.Fatalf("after Swap: got host %p serving, want the new %p", got, next)
	}
	res, err := live.Call(context.Background(), &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"new","times":1}`)})
	if err != nil || res.Text != "new" {
		t.Fatalf("a call after Swap: got %+v, %v, want new", res, err)
	}
	select {
	case <-done:
		t.Fatal("the old host closed with a call in flight")
	default:
	}
	cancel()
	o := <-inFlight
	if o.err != nil || o.res.Status != host.StatusCancelled {
		t.Fatalf("the call in flight: got %+v, %v, want it cancelled on the old host", o.res, o.err)
	}
	<-done
	if _, err := first.Tools(""); err != nil {
		t.Fatal(err)
	}
	if _, err := first.Call(context.Background(), &host.CallRequest{Tool: "crashy_echo", Input: json.RawMessage(`{"text":"x","times":1}`)}); !errors.Is(err, host.ErrClosed) {
		t.Errorf("the old host after its last call: got %v, want ErrClosed", err)
	}
}

// TestLivePrepareBroken keeps the old host when a changed mod does not
// load.
func TestLivePrepareBroken(t *testing.T) {
	t.Parallel()
	live := host.NewLive(loadInProcess(t, nil).Host)
	t.Cleanup(func() { live.Close() })
	missing := filepath.Join(t.TempDir(), "gone")
	next, err := live.Prepare(context.Background(), func() (*host.Host, error) {
		return host.Load([]string{missing}, &host.Options{CacheDir: cacheDir})
	}, []string{missing})
	if err == nil || next != nil {
		t.Fatalf("Prepare of a missing mod: got %v, %v, want an error", next, err)
	}
	if want := "no such mod directory"; !contains(err.Error(), want) {
		t.Errorf("got %q, want it to say %q", err, want)
	}
}

//go:build unix

package protocol

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/sdk"
)

// envLaneChild, set, makes this test binary a mod process serving echo on
// the call lane it inherits, for BenchmarkProcessLane.
const envLaneChild = "MODKIT_TEST_LANE_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(envLaneChild) != "" {
		os.Exit(serveLaneChild())
	}
	os.Exit(m.Run())
}

// serveLaneChild serves echo on the inherited lane until the host closes it.
func serveLaneChild() int {
	conn, err := OpenLane()
	if conn == nil || err != nil {
		fmt.Fprintln(os.Stderr, "lane child: no call lane:", err)
		return 1
	}
	srv := &LaneServer{Impl: laneMod{call: echo}, MaxMessageBytes: 1 << 20}
	if err := srv.Serve(conn); err != nil {
		fmt.Fprintln(os.Stderr, "lane child:", err)
		return 1
	}
	return 0
}

// processLane returns a client of a lane whose mod end is served by a child
// process running this test binary, as a host's mod process is.
func processLane(tb testing.TB) *LaneClient {
	tb.Helper()
	host, child, err := NewLanePair()
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envLaneChild+"=1", EnvCallLaneFD+"=3")
	cmd.ExtraFiles = []*os.File{child}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	child.Close()
	hc, err := LaneConn(host)
	if err != nil {
		tb.Fatal(err)
	}
	c := NewLaneClient(&GRPCClient{}, hc, LaneOptions{MaxMessageBytes: 1 << 20})
	tb.Cleanup(func() {
		c.Close()
		if err := cmd.Wait(); err != nil {
			tb.Errorf("lane child: %v", err)
		}
	})
	return c
}

// BenchmarkProcessLane measures a call and its outcome over a lane whose
// mod end is another process, as BenchmarkSocketLane does in one: the
// thread wakes that cost a mod process the most show here.
func BenchmarkProcessLane(b *testing.B) {
	c := processLane(b)
	req := &modapi.CallRequest{Tool: "t", Input: json.RawMessage(`{"text":"hi"}`)}
	b.Run("serial", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.CallTool(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("activity10", func(b *testing.B) {
		n := 0
		req := &modapi.CallRequest{Tool: "t", Input: json.RawMessage("10"), OnActivity: func(sdk.ActivityUpdate) { n++ }}
		for b.Loop() {
			if _, err := c.CallTool(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
		if n != 10*b.N {
			b.Fatalf("got %d updates, want %d", n, 10*b.N)
		}
	})
}

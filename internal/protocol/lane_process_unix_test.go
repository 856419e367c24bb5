//go:build unix

package protocol

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

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

// envLaneChildProfile, set, names the file where the lane child writes
// its CPU profile when the lane closes.
const envLaneChildProfile = "MODKIT_TEST_LANE_CHILD_PROFILE"

// serveLaneChild serves echo, with stepMod's steps, on the inherited lane
// until the host closes it.
func serveLaneChild() int {
	conn, err := OpenLane()
	if conn == nil || err != nil {
		fmt.Fprintln(os.Stderr, "lane child: no call lane:", err)
		return 1
	}
	if file := os.Getenv(envLaneChildProfile); file != "" {
		f, err := os.Create(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, "lane child:", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "lane child:", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	srv := &LaneServer{Impl: &aheadMod{stepMod: &stepMod{}}, MaxMessageBytes: 1 << 20}
	if err := srv.Serve(conn); err != nil {
		fmt.Fprintln(os.Stderr, "lane child:", err)
		return 1
	}
	return 0
}

// processLane returns a client of a lane whose mod end is served by a child
// process running this test binary, as a host's mod process is, and the
// child's pid.
func processLane(tb testing.TB) (*LaneClient, int) {
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
	c := NewLaneClient(&GRPCClient{}, hc, LaneOptions{MaxMessageBytes: 1 << 20, Steps: true})
	tb.Cleanup(func() {
		c.Close()
		if err := cmd.Wait(); err != nil {
			tb.Errorf("lane child: %v", err)
		}
	})
	return c, cmd.Process.Pid
}

// schedCPU returns the CPU time process pid's threads have used, from
// /proc/PID/task/*/schedstat (nanoseconds), or false where there is none.
func schedCPU(pid int) (time.Duration, bool) {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, false
	}
	var d time.Duration
	for _, t := range tasks {
		data, err := os.ReadFile(filepath.Join(dir, t.Name(), "schedstat"))
		if err != nil {
			continue // the thread has exited
		}
		f := strings.Fields(string(data))
		if len(f) == 0 {
			return 0, false
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		d += time.Duration(ns)
	}
	return d, true
}

// reportBothCPU runs the loop of b, then reports the CPU per call of this
// process (the host) and of process pid (the mod), where /proc says.
func reportBothCPU(b *testing.B, pid int, loop func()) {
	host0, ok1 := schedCPU(os.Getpid())
	mod0, ok2 := schedCPU(pid)
	loop()
	host1, ok3 := schedCPU(os.Getpid())
	mod1, ok4 := schedCPU(pid)
	if ok1 && ok2 && ok3 && ok4 && b.N > 0 {
		per := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) / float64(b.N) }
		b.ReportMetric(per(host1-host0), "host-cpu-µs/op")
		b.ReportMetric(per(mod1-mod0), "mod-cpu-µs/op")
	}
}

// BenchmarkProcessLane measures a call and its outcome over a lane whose
// mod end is another process, as BenchmarkSocketLane does in one: the
// thread wakes that cost a mod process the most show here. Each reports
// the CPU per call of both processes (on Linux), steadier than the time
// per call on a busy machine.
func BenchmarkProcessLane(b *testing.B) {
	c, pid := processLane(b)
	req := &modapi.CallRequest{Tool: "t", Input: json.RawMessage(`{"text":"hi"}`)}
	b.Run("serial", func(b *testing.B) {
		reportBothCPU(b, pid, func() {
			for b.Loop() {
				if _, err := c.CallTool(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	// A call behind an input check and a hook: each in a frame of its
	// own, then the call; and all three in the call's frame.
	hook := &modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall, Tool: "t", Input: req.Input}, Run: modapi.Run{CallID: "h"}}
	b.Run("hooked_apart", func(b *testing.B) {
		ctx := context.Background()
		reportBothCPU(b, pid, func() {
			for b.Loop() {
				if resp, err := c.CheckInput(ctx, &modapi.CheckRequest{Tool: "t", Input: req.Input}); err != nil || len(resp.Problems) > 0 {
					b.Fatal(resp, err)
				}
				if resp, err := c.BeforeAction(ctx, hook); err != nil || resp.Refusal != "" {
					b.Fatal(resp, err)
				}
				if _, err := c.CallTool(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	b.Run("hooked_ahead", func(b *testing.B) {
		req := *req
		req.Ahead = &modapi.Ahead{Check: true, Hook: hook, HookTimeout: time.Minute}
		reportBothCPU(b, pid, func() {
			for b.Loop() {
				resp, err := c.CallTool(context.Background(), &req)
				if err != nil || resp.Stopped != nil {
					b.Fatal(resp, err)
				}
			}
		})
	})
	b.Run("activity10", func(b *testing.B) {
		n := 0
		req := &modapi.CallRequest{Tool: "t", Input: json.RawMessage("10"), OnActivity: func(sdk.ActivityUpdate) { n++ }}
		reportBothCPU(b, pid, func() {
			for b.Loop() {
				if _, err := c.CallTool(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
		if n != 10*b.N {
			b.Fatalf("got %d updates, want %d", n, 10*b.N)
		}
	})
}

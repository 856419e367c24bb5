//go:build unix

package protocol

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
// process running this test binary, as a host's mod process is.
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

// BenchmarkProcessLane measures a call and its outcome over a lane whose
// mod end is another process, as BenchmarkSocketLane does in one: the
// thread wakes that cost a mod process the most show here. Each reports
// the CPU per call of both processes (on Linux), steadier than the time
// per call on a busy machine.
func BenchmarkProcessLane(b *testing.B) {
	c, pid := processLane(b)
	req := &modapi.CallRequest{Tool: "t", Input: json.RawMessage(`{"text":"hi"}`)}
	b.Run("serial", func(b *testing.B) {
		defer reportBothCPU(b, pid)()
		for b.Loop() {
			if _, err := c.CallTool(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A call whose context can end, as host.Call's can: a caller that
	// reads the lane arranges to be interrupted should it end.
	b.Run("cancellable", func(b *testing.B) {
		defer reportBothCPU(b, pid)()
		for b.Loop() {
			ctx, cancel := context.WithCancel(context.Background())
			_, err := c.CallTool(ctx, req)
			cancel()
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	// Eight callers at once, as the bench's concurrent row makes.
	b.Run("parallel8", func(b *testing.B) {
		defer reportBothCPU(b, pid)()
		var next atomic.Int64
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for next.Add(1) <= int64(b.N) {
					if _, err := c.CallTool(context.Background(), req); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
	})
	// A call behind an input check and a hook: each in a frame of its
	// own, then the call; and all three in the call's frame.
	hook := &modapi.ActionRequest{Action: sdk.Action{Name: sdk.ActionToolCall, Tool: "t", Input: req.Input}, Run: modapi.Run{CallID: "h"}}
	b.Run("hooked_apart", func(b *testing.B) {
		ctx := context.Background()
		defer reportBothCPU(b, pid)()
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
	b.Run("hooked_ahead", func(b *testing.B) {
		req := *req
		req.Ahead = &modapi.Ahead{Check: true, Hook: hook, HookTimeout: time.Minute}
		defer reportBothCPU(b, pid)()
		for b.Loop() {
			resp, err := c.CallTool(context.Background(), &req)
			if err != nil || resp.Stopped != nil {
				b.Fatal(resp, err)
			}
		}
	})
	b.Run("activity10", func(b *testing.B) {
		n := 0
		req := &modapi.CallRequest{Tool: "t", Input: json.RawMessage("10"), OnActivity: func(sdk.ActivityUpdate) { n++ }}
		report := reportBothCPU(b, pid)
		for b.Loop() {
			if _, err := c.CallTool(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
		report()
		if n != 10*b.N {
			b.Fatalf("got %d updates, want %d", n, 10*b.N)
		}
	})
}

// reportBothCPU returns what reports the CPU time per op this process and
// process pid (the lane's mod end) spent since reportBothCPU was called;
// the mod's where the platform says (Linux's /proc).
func reportBothCPU(b *testing.B, pid int) func() {
	host0, mod0 := processCPU(b), threadsCPU(pid)
	hs0, ms0 := switches("self"), switches(fmt.Sprint(pid))
	hr0, hw0 := syscallsIO("self")
	mr0, mw0 := syscallsIO(fmt.Sprint(pid))
	return func() {
		host, mod := processCPU(b), threadsCPU(pid)
		hr, hw := syscallsIO("self")
		mr, mw := syscallsIO(fmt.Sprint(pid))
		if hs0 >= 0 && ms0 >= 0 {
			n := float64(b.N)
			b.ReportMetric(float64(switches("self")-hs0)/n, "host-switches/op")
			b.ReportMetric(float64(switches(fmt.Sprint(pid))-ms0)/n, "mod-switches/op")
		}
		if hr0 >= 0 && mr0 >= 0 {
			n := float64(b.N)
			b.ReportMetric(float64(hr-hr0)/n, "host-reads/op")
			b.ReportMetric(float64(hw-hw0)/n, "host-writes/op")
			b.ReportMetric(float64(mr-mr0)/n, "mod-reads/op")
			b.ReportMetric(float64(mw-mw0)/n, "mod-writes/op")
		}
		b.ReportMetric(float64(host-host0)/float64(b.N)/1e3, "host-cpu-µs/op")
		if mod >= 0 && mod0 >= 0 {
			b.ReportMetric(float64(mod-mod0)/float64(b.N)/1e3, "mod-cpu-µs/op")
		}
	}
}

// threadsCPU returns the CPU time process pid's threads have used, from
// their schedstat files, or -1 where the platform has none.
func threadsCPU(pid int) time.Duration {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return -1
	}
	var total time.Duration
	for _, t := range tasks {
		data, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue // the thread has exited
		}
		var ns int64
		if _, err := fmt.Sscan(string(data), &ns); err != nil {
			return -1
		}
		total += time.Duration(ns)
	}
	return total
}

// switches returns the times process pid's ("self" for this one) threads
// were switched in, from their schedstat files, or -1 where the platform
// has none: threads that have exited are not counted.
func switches(pid string) int64 {
	dir := "/proc/" + pid + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return -1
	}
	var total int64
	for _, t := range tasks {
		data, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue // the thread has exited
		}
		var run, wait, n int64
		if _, err := fmt.Sscan(string(data), &run, &wait, &n); err != nil {
			return -1
		}
		total += n
	}
	return total
}

// syscallsIO returns the read and write system calls process pid ("self"
// for this one) has made, from /proc, or -1 where the platform has none.
func syscallsIO(pid string) (reads, writes int64) {
	data, err := os.ReadFile("/proc/" + pid + "/io")
	if err != nil {
		return -1, -1
	}
	reads, writes = -1, -1
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "syscr: "); ok {
			reads, _ = strconv.ParseInt(v, 10, 64)
		}
		if v, ok := strings.CutPrefix(line, "syscw: "); ok {
			writes, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	return reads, writes
}

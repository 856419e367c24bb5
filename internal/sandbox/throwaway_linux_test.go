package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

const throwawayEnv = "MODKIT_SANDBOX_THROWAWAY_PROBE"

// throwawayRuns is how many times the probe runs a function on a
// throwaway thread.
const throwawayRuns = 50

// runThrowawayProbe runs, from the main goroutine while it is on the main
// thread (where the runtime runs a new goroutine next when the caller
// waits), throwawayRuns functions on throwaway threads, one at a time, and
// prints how many ran on the main thread and how many times a goroutine
// of onThrowawayThread asked whether it was on the main thread; "skip"
// when the main goroutine is not on the main thread.
func runThrowawayProbe() {
	if unix.Gettid() != unix.Getpid() {
		fmt.Println("skip")
		return
	}
	var checks atomic.Int32
	onMain := isMainThread
	isMainThread = func() bool { checks.Add(1); return onMain() }
	onMainThread := 0
	for range throwawayRuns {
		tid := make(chan int)
		onThrowawayThread(func() { tid <- unix.Gettid() })
		if <-tid == unix.Getpid() {
			onMainThread++
		}
	}
	fmt.Println(onMainThread, checks.Load())
}

// TestThrowawayThreadHopsOnce wants each function run on a thread other
// than the main one, and a goroutine that found itself on the main thread
// to hand the function over once: one check a run, where it went again
// from the main thread until another thread took the goroutine.
func TestThrowawayThreadHopsOnce(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), throwawayEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	got := strings.TrimSpace(string(out))
	if got == "skip" {
		t.Skip("the test binary's main goroutine is not on the main thread")
	}
	if want := fmt.Sprint(0, throwawayRuns); got != want {
		t.Errorf("got %q (runs on the main thread, checks), want %q", got, want)
	}
}

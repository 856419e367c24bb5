package main

import (
	"os"
	"testing"
	"time"
)

func TestParseStatCPU(t *testing.T) {
	line := "4242 (my (odd) cmd) S 17 4242 4242 0 -1 4194560 100 0 0 0 150 25 0 0 20 0 7 0 1 2 3"
	got, err := parseStatCPU([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if want := 175 * clockTick; got != want {
		t.Errorf("parseStatCPU: got %v, want %v", got, want)
	}
	if _, err := parseStatCPU([]byte("4242 (x) S 1 2")); err == nil {
		t.Error("parseStatCPU of a short line: got no error, want one")
	}
}

func TestCPUMeterSelf(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	m, err := startCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	// Spin until getrusage itself reports 20 ms, so a busy machine only
	// makes the loop longer.
	start, deadline := selfCPU(), time.Now().Add(10*time.Second)
	for selfCPU()-start < 20*time.Millisecond && time.Now().Before(deadline) {
	}
	self, peer, err := m.perCall(2)
	if err != nil {
		t.Fatal(err)
	}
	if self < 10000 {
		t.Errorf("self cpu per call, 2 calls, after 20 ms of CPU: got %.0f µs, want ≥ 10000", self)
	}
	if peer < 0 {
		t.Errorf("peer cpu: got %.0f µs, want ≥ 0", peer)
	}
}

func TestParseSchedstat(t *testing.T) {
	got, ok := parseSchedstat([]byte("1123138226 2948793576 886\n"))
	if !ok || got != 1123138226*time.Nanosecond {
		t.Errorf("parseSchedstat: got %v, %v, want 1.123138226s, true", got, ok)
	}
	for _, bad := range []string{"", "x 1 2", "-5 1 2"} {
		if _, ok := parseSchedstat([]byte(bad)); ok {
			t.Errorf("parseSchedstat(%q): got ok, want not", bad)
		}
	}
}

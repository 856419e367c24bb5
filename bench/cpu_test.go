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
	deadline := time.Now().Add(50 * time.Millisecond)
	for time.Now().Before(deadline) {
	}
	self, peer, err := m.perCall(1)
	if err != nil {
		t.Fatal(err)
	}
	if self < 30000 {
		t.Errorf("self cpu after a 50 ms busy loop: got %.0f µs, want ≥ 30000", self)
	}
	if peer < 0 {
		t.Errorf("peer cpu: got %.0f µs, want ≥ 0", peer)
	}
}

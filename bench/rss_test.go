package main

import (
	"os"
	"testing"
)

func TestParseVmRSS(t *testing.T) {
	tests := []struct {
		name    string
		status  string
		want    float64
		wantErr bool
	}{
		{"kB", "Name:\tx\nVmPeak:\t 9000 kB\nVmRSS:\t   15360 kB\nThreads: 7\n", 15, false},
		{"missing", "Name:\tx\n", 0, true},
		{"bad unit", "VmRSS:\t 12 MB\n", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseVmRSS([]byte(tt.status))
			if (err != nil) != tt.wantErr {
				t.Fatalf("parseVmRSS: got error %v, want error %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("parseVmRSS: got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseStat(t *testing.T) {
	pid, ppid, ok := parseStat([]byte("4242 (my (odd) cmd) S 17 4242 4242 0 -1"))
	if !ok || pid != 4242 || ppid != 17 {
		t.Errorf("parseStat: got %d, %d, %v, want 4242, 17, true", pid, ppid, ok)
	}
	if _, _, ok := parseStat([]byte("garbage")); ok {
		t.Error("parseStat(garbage): got ok, want not ok")
	}
}

func TestRSSOfSelf(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	mb, err := rssMB(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if mb <= 0 || mb > 4096 {
		t.Errorf("rssMB(self) = %v MB, want between 0 and 4096", mb)
	}
}

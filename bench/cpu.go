package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of the CPU times in /proc/PID/stat (USER_HZ, 100 on
// Linux).
const clockTick = 10 * time.Millisecond

// procCPU returns the user plus system CPU time process pid has used, from
// /proc/PID/stat.
func procCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read cpu time of process %d: %w", pid, err)
	}
	return parseStatCPU(data)
}

// parseStatCPU reads utime and stime, the 14th and 15th fields of a
// /proc/PID/stat line.
func parseStatCPU(data []byte) (time.Duration, error) {
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("stat: no command name")
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("stat: got %d fields after the name, want at least 13", len(f))
	}
	utime, err := strconv.ParseInt(f[11], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("stat: utime: %w", err)
	}
	stime, err := strconv.ParseInt(f[12], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("stat: stime: %w", err)
	}
	return time.Duration(utime+stime) * clockTick, nil
}

// cpuMeter measures the CPU time the caller's process and one child spend.
type cpuMeter struct {
	pid        int
	self, peer time.Duration
}

func startCPU(pid int) (*cpuMeter, error) {
	peer, err := procCPU(pid)
	if err != nil {
		return nil, err
	}
	return &cpuMeter{pid: pid, self: selfCPU(), peer: peer}, nil
}

// perCall returns the CPU each side spent since startCPU, divided by calls,
// in microseconds.
func (m *cpuMeter) perCall(calls float64) (self, peer float64, err error) {
	p, err := procCPU(m.pid)
	if err != nil {
		return 0, 0, err
	}
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) / calls }
	return us(selfCPU() - m.self), us(p - m.peer), nil
}

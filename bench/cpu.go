package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of the CPU times in /proc/PID/stat (USER_HZ, 100 on
// Linux).
const clockTick = 10 * time.Millisecond

// procCPU returns the user plus system CPU time process pid has used: to
// the nanosecond from its threads' /proc/PID/task/TID/schedstat when the
// kernel keeps them, else in clock ticks from /proc/PID/stat. A tick is
// 10 ms, which over a few hundred calls is tens of µs per call: too coarse
// to tell two sides of a row apart. (The thread sum loses the time of a
// thread that exited; Go's runtime keeps its threads.)
func procCPU(pid int) (time.Duration, error) {
	if d, ok := threadsCPU(pid); ok {
		return d, nil
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read cpu time of process %d: %w", pid, err)
	}
	return parseStatCPU(data)
}

// threadsCPU sums the CPU time of process pid's threads from their
// schedstat files; ok is false when they cannot be read.
func threadsCPU(pid int) (d time.Duration, ok bool) {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, false
	}
	for _, t := range tasks {
		data, err := os.ReadFile(filepath.Join(dir, t.Name(), "schedstat"))
		if errors.Is(err, fs.ErrNotExist) {
			continue // the thread has exited
		}
		if err != nil {
			return 0, false
		}
		ns, ok := parseSchedstat(data)
		if !ok {
			return 0, false
		}
		d += ns
	}
	return d, len(tasks) > 0
}

// parseSchedstat reads the first field of a schedstat line: the time the
// thread has run, in nanoseconds.
func parseSchedstat(data []byte) (time.Duration, bool) {
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0, false
	}
	ns, err := strconv.ParseInt(f[0], 10, 64)
	return time.Duration(ns), err == nil && ns >= 0
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

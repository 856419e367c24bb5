package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// rssMB returns the resident set size of process pid in MiB (2^20 bytes), from
// /proc/PID/status.
func rssMB(pid int) (float64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read memory of process %d: %w", pid, err)
	}
	return parseVmRSS(data)
}

// parseVmRSS reads the VmRSS line of a /proc/PID/status file, in MiB.
func parseVmRSS(status []byte) (float64, error) {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("VmRSS: unexpected %q", rest)
		}
		kb, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return 0, fmt.Errorf("VmRSS: %w", err)
		}
		return kb / 1024, nil
	}
	return 0, fmt.Errorf("no VmRSS line")
}

// children returns the ids of this process's child processes.
func children() ([]int, error) { return childrenOf(os.Getpid()) }

// childrenOf returns the pids of the child processes of parent.
func childrenOf(parent int) ([]int, error) {
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, path := range stats {
		data, err := os.ReadFile(path)
		if err != nil {
			continue // the process ended
		}
		pid, ppid, ok := parseStat(data)
		if ok && ppid == parent {
			out = append(out, pid)
		}
	}
	return out, nil
}

// startedChild returns the one child process that is not among before.
func startedChild(before []int) (int, error) {
	after, err := children()
	if err != nil {
		return 0, err
	}
	var started []int
	for _, pid := range after {
		if !slices.Contains(before, pid) {
			started = append(started, pid)
		}
	}
	if len(started) != 1 {
		return 0, fmt.Errorf("got %d new child processes, want 1 mod process", len(started))
	}
	return started[0], nil
}

// parseStat reads the pid and parent pid of a /proc/PID/stat line, whose
// second field, the command name in parentheses, may hold spaces.
func parseStat(data []byte) (pid, ppid int, ok bool) {
	s := string(data)
	open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || close < open {
		return 0, 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(s[:open]))
	if err != nil {
		return 0, 0, false
	}
	f := strings.Fields(s[close+1:])
	if len(f) < 2 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(f[1])
	if err != nil {
		return 0, 0, false
	}
	return pid, ppid, true
}

// idleRSS starts a new host, makes one call, lets the mod sit idle and reads
// its memory; the bare plugin, with the same security and treated alike, is
// the baseline. The row is the ratio of the two, round by round (as many
// as -rounds says, alternating which side goes first), so that it holds
// on any machine; both sides keep their MiB figures.
func idleRSS(ctx context.Context, e *env) (row, error) {
	if _, err := e.modHost(ctx); err != nil { // builds the mod binary when needed
		return row{}, err
	}
	modkit := func(int) ([]float64, error) {
		before, err := children()
		if err != nil {
			return nil, err
		}
		h, err := coldModkit(ctx, e)
		if err != nil {
			return nil, err
		}
		defer h.Close()
		pid, err := startedChild(before)
		if err != nil {
			return nil, err
		}
		time.Sleep(e.cfg.idleFor)
		mb, err := rssMB(pid)
		return []float64{mb}, err
	}
	plugin := func(int) ([]float64, error) {
		p, err := startBare(ctx, e.bins)
		if err != nil {
			return nil, err
		}
		defer p.Close()
		time.Sleep(e.cfg.idleFor)
		mb, err := rssMB(p.Pid())
		return []float64{mb}, err
	}
	mod, bare, err := pair(e.cfg.rounds, modkit, plugin)
	if err != nil {
		return row{}, err
	}
	return compare("", rssSide("mod process VmRSS", mod), rssSide("go-plugin process VmRSS", bare), roundRatios(mod, bare), goal{}), nil
}

func rssSide(label string, s *sample) side {
	xs := s.all()
	return side{label: label, unit: "MiB", p50: median(xs), p99: percentile(xs, 99)}
}

package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// floorEnv, when set, makes the benchmark's binary the far end of
// unix_roundtrip_us: it connects to the unix socket the variable names and
// answers each floorBytes-byte message with as many bytes, until the
// socket closes.
const floorEnv = "MODKIT_BENCH_FLOOR_ECHO"

// idleSpell is how long both processes of the floor's round trip stay idle
// before each idle one (this one sleeps, the far end waits to read): about
// what a polled task leaves its mod idle between calls.
const idleSpell = 250 * time.Microsecond

// floorBytes is the size of each message of the floor's round trip, about
// a tool call's frame on the call lane.
const floorBytes = 200

// floorChild reports whether this process is the floor's far end; if so it
// runs it and returns the exit code.
func floorChild() (code int, child bool) {
	path, ok := os.LookupEnv(floorEnv)
	if !ok {
		return 0, false
	}
	conn, err := net.Dial("unix", path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: floor: %v\n", err)
		return 1, true
	}
	defer conn.Close()
	buf := make([]byte, floorBytes)
	for {
		if _, err := io.ReadFull(conn, buf); err != nil {
			return 0, true // the benchmark closed the socket
		}
		if _, err := conn.Write(buf); err != nil {
			return 0, true
		}
	}
}

// unixRoundTrip measures the floor under every call between two
// processes on this machine: a floorBytes-byte message to another Go
// process over a unix socket and its answer back, with nothing else. It is
// for reference only: no modkit code runs.
func unixRoundTrip(ctx context.Context, e *env) (row, error) {
	self, err := os.Executable()
	if err != nil {
		return row{}, err
	}
	path := filepath.Join(e.tmp, "floor.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		return row{}, err
	}
	defer ln.Close()
	cmd := exec.CommandContext(ctx, self)
	cmd.Env = append(os.Environ(), floorEnv+"="+path)
	cmd.Stderr = e.log
	setParentDeathSignal(cmd)
	if err := cmd.Start(); err != nil {
		return row{}, err
	}
	defer cmd.Wait()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	var conn net.Conn
	select {
	case conn = <-accepted:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		return row{}, fmt.Errorf("the floor's far end did not connect within a minute")
	}
	if conn == nil {
		return row{}, fmt.Errorf("the floor's far end did not connect")
	}
	defer conn.Close()
	out, in := make([]byte, floorBytes), make([]byte, floorBytes)
	for i := range out {
		out[i] = byte('a' + i%26)
	}
	roundTrip := func(context.Context) error {
		if _, err := conn.Write(out); err != nil {
			return err
		}
		if _, err := io.ReadFull(conn, in); err != nil {
			return err
		}
		if string(in) != string(out) {
			return fmt.Errorf("the floor's far end answered %q, want %q", in, out)
		}
		return nil
	}
	var s sample
	for range e.cfg.rounds {
		xs, err := latencies(ctx, e.cfg.warmup, e.cfg.calls, roundTrip)
		if err != nil {
			return row{}, err
		}
		s.add(xs)
	}
	idle, err := idleLatencies(ctx, e.cfg.calls, roundTrip)
	if err != nil {
		return row{}, err
	}
	xs := s.all()
	a := side{label: fmt.Sprintf("%d-byte round trip, unix socket, two Go processes", floorBytes), unit: "µs",
		p50: percentile(xs, 50), p99: percentile(xs, 99)}
	r := single("", a, s.roundMedians(), goal{})
	r.notes = []string{fmt.Sprintf("the same round trip with both processes idle %d µs before each (what waking idle processes adds here, as a polled task's mod is woken): p50 %s µs",
		idleSpell.Microseconds(), num(percentile(idle, 50)))}
	return r, nil
}

// idleLatencies times n calls of fn, each after this process sleeps
// idleSpell, in µs.
func idleLatencies(ctx context.Context, n int, fn call) ([]float64, error) {
	ds := make([]time.Duration, n)
	for i := range ds {
		time.Sleep(idleSpell)
		start := time.Now()
		if err := fn(ctx); err != nil {
			return nil, err
		}
		ds[i] = time.Since(start)
	}
	return micros(ds), nil
}

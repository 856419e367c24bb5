package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/modkit/modkit/bench/internal/echomod"
	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/mcpbridge"
	"github.com/modkit/modkit/internal/taskstore"
)

// taskCancelMS measures how long a tasks/cancel sent to one replica takes
// to reach the handler of the task running on another: two modhost HTTP
// handlers (two replicas: each its own task runner) share a Redis store;
// wait_cancel runs as a task on the first, the cancel goes to the second,
// and the time is from sending the cancel to the handler seeing ctx.Done
// (the time it writes to a file). It needs redis-server installed.
func taskCancelMS(ctx context.Context, e *env) (row, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return row{}, err
	}
	h, err := e.modHost(ctx)
	if err != nil {
		return row{}, err
	}
	redisURL, stopRedis, err := startRedis(ctx, bin, e.tmp)
	if err != nil {
		return row{}, err
	}
	defer stopRedis()
	var urls []string
	for range 2 {
		store, err := taskstore.Open(redisURL)
		if err != nil {
			return row{}, err
		}
		defer store.Close()
		url, stop, err := serveReplica(h, e.tmp, store)
		if err != nil {
			return row{}, err
		}
		defer stop()
		urls = append(urls, url)
	}
	runner := &rawClient{url: urls[0], http: &http.Client{}}
	canceller := &rawClient{url: urls[1], http: &http.Client{}}
	file := e.tmp + "/task-cancelled"
	var s sample
	for range e.cfg.rounds {
		ds := make([]time.Duration, e.cfg.cancels)
		for i := range ds {
			if ds[i], err = cancelTaskOnce(ctx, runner, canceller, file); err != nil {
				return row{}, err
			}
		}
		ms := micros(ds)
		for i := range ms {
			ms[i] /= 1000
		}
		s.add(ms)
	}
	xs := s.all()
	a := side{label: "tasks/cancel on replica B → ctx.Done on replica A", unit: "ms", p50: percentile(xs, 50), p99: percentile(xs, 99)}
	return single("", a, s.roundMedians(), goal{}), nil
}

// serveReplica serves h's tools over modhost's HTTP endpoint with its tasks
// in store, as one replica.
func serveReplica(h *host.Host, workspace string, store taskstore.Store) (url string, stop func(), err error) {
	srv, err := mcpbridge.NewServer(h, &mcpbridge.Options{Workspace: workspace, TaskStore: store})
	if err != nil {
		return "", nil, err
	}
	handler := srv.NewHTTPHandler(nil)
	url, stopServer := serveLoopback(handler)
	return url, func() { stopServer(); handler.Close() }, nil
}

// cancelTaskOnce starts wait_cancel as a task at runner, cancels it at
// canceller, and returns the time from the cancel to the handler seeing it.
func cancelTaskOnce(ctx context.Context, runner, canceller *rawClient, file string) (time.Duration, error) {
	os.Remove(file)
	res, err := runner.post(ctx, "tools/call", "wait_cancel", map[string]any{"name": "wait_cancel",
		"arguments": echomod.WaitInput{File: file}})
	if err != nil {
		return 0, err
	}
	var t struct {
		ResultType string `json:"resultType"`
		TaskID     string `json:"taskId"`
	}
	if err := json.Unmarshal(res, &t); err != nil || t.ResultType != "task" {
		return 0, fmt.Errorf("wait_cancel: got %s, want a task", res)
	}
	start := time.Now()
	if _, err := canceller.post(ctx, "tasks/cancel", t.TaskID, map[string]any{"taskId": t.TaskID}); err != nil {
		return 0, err
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		data, err := os.ReadFile(file)
		if err == nil && len(data) > 0 {
			ns, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("wait_cancel wrote %q: %w", data, err)
			}
			return time.Unix(0, ns).Sub(start), nil
		}
		if time.Now().After(deadline) {
			return 0, errors.New("wait_cancel: the task's handler did not see the cancel within 5s")
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// startRedis starts redis-server on a free loopback port, its data in a
// directory under tmp, and returns its URL.
func startRedis(ctx context.Context, bin, tmp string) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	dir, err := os.MkdirTemp(tmp, "redis")
	if err != nil {
		return "", nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir, "--protected-mode", "no")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("redis-server: %w", err)
	}
	stop := func() { cmd.Process.Kill(); cmd.Wait() }
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		found := false
		for sc.Scan() {
			if !found && strings.Contains(sc.Text(), "Ready to accept connections") {
				found = true
				ready <- true
			}
		}
		if !found {
			ready <- false
		}
	}()
	select {
	case ok := <-ready:
		if !ok {
			stop()
			return "", nil, errors.New("redis-server exited before it was ready")
		}
	case <-time.After(10 * time.Second):
		stop()
		return "", nil, errors.New("redis-server was not ready within 10 s")
	}
	return fmt.Sprintf("redis://127.0.0.1:%d/0", port), stop, nil
}

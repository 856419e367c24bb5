package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkTask: the two sides of task_vs_call, for profiling
// (-cpuprofile) what a task costs beyond a call.
func BenchmarkTask(b *testing.B) {
	e := benchEnv(b)
	h, err := e.modHost(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	url, stop, err := serveBridge(h, e.tmp)
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	c := &rawClient{url: url, http: &http.Client{}}
	if err := c.checkEchoTask(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Run("task", func(b *testing.B) {
		var call, poll time.Duration
		polls := 0
		c.timing = func(method string, d time.Duration) {
			if method == "tools/call" {
				call += d
			} else {
				poll += d
				polls++
			}
		}
		defer func() { c.timing = nil }()
		cpu := hostCPU(b)
		runCall(b, func(ctx context.Context) error { return c.echoTask(ctx) })
		cpu()
		b.ReportMetric(float64(call.Microseconds())/float64(b.N), "call-µs/op")
		b.ReportMetric(float64(poll.Microseconds())/float64(b.N), "poll-µs/op")
		b.ReportMetric(float64(polls)/float64(b.N), "polls/op")
	})
	b.Run("plain", func(b *testing.B) {
		cpu := hostCPU(b)
		runCall(b, func(ctx context.Context) error { return c.echo(ctx, "echo") })
		cpu()
	})
}

// hostCPU starts counting the CPU time of this process (the client and
// the host's HTTP handler; not the mod's); the function it returns reports
// it per op.
func hostCPU(b *testing.B) func() {
	start, err := procCPU(os.Getpid())
	if err != nil {
		b.Fatal(err)
	}
	return func() {
		end, err := procCPU(os.Getpid())
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64((end-start).Microseconds())/float64(b.N), "host-cpu-µs/op")
	}
}

// BenchmarkBalanced: modkit's two sides of balanced_hop_vs_haproxy; needs
// haproxy.
func BenchmarkBalanced(b *testing.B) {
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		b.Skip("haproxy is not installed")
	}
	e := benchEnv(b)
	ctx := context.Background()
	h, err := e.modHost(ctx)
	if err != nil {
		b.Fatal(err)
	}
	var urls []string
	for range 3 {
		url, stop, err := serveBridge(h, e.tmp)
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
		urls = append(urls, url)
	}
	lbURL, stopLB, err := startHAProxy(ctx, bin, e.tmp, urls)
	if err != nil {
		b.Fatal(err)
	}
	defer stopLB()
	direct := &rawClient{url: urls[0], http: &http.Client{}}
	balanced := &rawClient{url: lbURL, http: &http.Client{}}
	if err := direct.checkEcho(ctx, "echo"); err != nil {
		b.Fatal(err)
	}
	b.Run("balanced", func(b *testing.B) { runCall(b, func(ctx context.Context) error { return balanced.echo(ctx, "echo") }) })
	b.Run("direct", func(b *testing.B) { runCall(b, func(ctx context.Context) error { return direct.echo(ctx, "echo") }) })
}

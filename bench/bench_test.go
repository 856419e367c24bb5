package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modkit/modkit/bench/internal/echo"
	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/testenv"
)

// prebuilt returns the baselines the tests share.
func prebuilt(context.Context, string) (*binaries, error) {
	barePath, err := testenv.ProgramPath(barePkg)
	if err != nil {
		return nil, err
	}
	mcpPath, err := testenv.ProgramPath(mcpPkg)
	if err != nil {
		return nil, err
	}
	modhostPath, err := testenv.ModhostPath()
	if err != nil {
		return nil, err
	}
	return binariesAt(barePath, mcpPath, modhostPath)
}

// The benchmarks below are the report's calls as go test -bench entry points:
//
//	go test ./bench -run '^$' -bench . -benchtime 2000x

var (
	envOnce sync.Once
	envErr  error
	shared  *env
)

func TestMain(m *testing.M) {
	if code, child := coldStartChild(); child {
		os.Exit(code)
	}
	if code, child := floorChild(); child {
		os.Exit(code)
	}
	code := m.Run()
	if shared != nil {
		shared.close()
	}
	os.Exit(code)
}

// benchEnv makes the environment once for all benchmarks and tests. Its
// baselines are the programs the tests of every package share, built once
// per change of the sources (testenv.Program), as a run's go build makes
// them.
func benchEnv(b testing.TB) *env {
	b.Helper()
	envOnce.Do(func() {
		shared, envErr = newEnv(context.Background(), quickConfig(), io.Discard, prebuilt)
	})
	if envErr != nil {
		b.Fatal(envErr)
	}
	return shared
}

func runCall(b *testing.B, fn call) {
	b.Helper()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := fn(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// runCallCPU is runCall reporting the CPU per call of this process (the
// host) and of process pid (the mod): on a busy machine steadier figures
// than the time per call.
func runCallCPU(b *testing.B, pid int, fn call) {
	b.Helper()
	m, err := startCPU(pid)
	if err != nil {
		b.Fatal(err)
	}
	runCall(b, fn)
	self, peer, err := m.perCall(float64(b.N))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(self, "host-cpu-µs/op")
	b.ReportMetric(peer, "mod-cpu-µs/op")
}

func runParallel(b *testing.B, fn call) {
	b.Helper()
	ctx := context.Background()
	b.SetParallelism(4) // 8 callers on 2 cores, as in the report
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := fn(ctx); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// runParallelCPU is runParallel reporting the CPU per call of this
// process and of process pid, as runCallCPU does.
func runParallelCPU(b *testing.B, pid int, fn call) {
	b.Helper()
	m, err := startCPU(pid)
	if err != nil {
		b.Fatal(err)
	}
	runParallel(b, fn)
	self, peer, err := m.perCall(float64(b.N))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(self, "host-cpu-µs/op")
	b.ReportMetric(peer, "mod-cpu-µs/op")
}

func BenchmarkCall(b *testing.B) {
	ctx := context.Background()
	b.Run("modkit", func(b *testing.B) {
		e := benchEnv(b)
		h, err := e.modHost(ctx)
		if err != nil {
			b.Fatal(err)
		}
		runCallCPU(b, e.hostPid, hostCall(h, e.session(), "echo", nil))
	})
	b.Run("modkit_activity10", func(b *testing.B) {
		e := benchEnv(b)
		h, err := e.modHost(ctx)
		if err != nil {
			b.Fatal(err)
		}
		// Watched, as the activity10_vs_call row does: each update is
		// streamed to OnActivity.
		runCallCPU(b, e.hostPid, hostCall(h, e.session(), "echo_activity", func(host.ActivityEvent) {}))
	})
	b.Run("modkit_hooked", func(b *testing.B) {
		e := benchEnv(b)
		h, pid, err := e.hookedHost(ctx)
		if err != nil {
			b.Fatal(err)
		}
		defer h.Close()
		runCallCPU(b, pid, hostCall(h, e.session(), "echo_hooked", nil))
	})
	b.Run("goplugin", func(b *testing.B) {
		e := benchEnv(b)
		p, err := e.bareProcess(ctx)
		if err != nil {
			b.Fatal(err)
		}
		runCall(b, bareCall(p))
	})
	b.Run("mcp", func(b *testing.B) {
		e := benchEnv(b)
		s, err := e.mcpProcess(ctx)
		if err != nil {
			b.Fatal(err)
		}
		runCall(b, s.call)
	})
}

func BenchmarkConcurrent(b *testing.B) {
	ctx := context.Background()
	b.Run("modkit", func(b *testing.B) {
		e := benchEnv(b)
		h, err := e.modHost(ctx)
		if err != nil {
			b.Fatal(err)
		}
		runParallelCPU(b, e.hostPid, hostCall(h, e.session(), "echo", nil))
	})
	b.Run("goplugin", func(b *testing.B) {
		e := benchEnv(b)
		p, err := e.bareProcess(ctx)
		if err != nil {
			b.Fatal(err)
		}
		runParallelCPU(b, p.Pid(), bareCall(p))
	})
}

func BenchmarkColdStart(b *testing.B) {
	ctx := context.Background()
	b.Run("modkit", func(b *testing.B) {
		e := benchEnv(b)
		if _, err := e.modHost(ctx); err != nil { // build once
			b.Fatal(err)
		}
		runColdStarts(b, e.coldStartJob("modkit", false))
	})
	b.Run("goplugin", func(b *testing.B) {
		runColdStarts(b, benchEnv(b).coldStartJob("goplugin", false))
	})
}

// runColdStarts starts cs in a fresh process per op; "start-ms/op" is
// the time each took from nothing to its first answer, as the process
// measured it (ns/op adds the process's own start and exit).
func runColdStarts(b *testing.B, cs coldStart) {
	var total time.Duration
	for b.Loop() {
		d, _, err := timeColdStart(context.Background(), cs)
		if err != nil {
			b.Fatal(err)
		}
		total += d
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "start-ms/op")
}

func BenchmarkDecode(b *testing.B) {
	generated, schema, err := decoders()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		dec  decoder
	}{
		{"generated", generated},
		{"encoding_json", jsonDecoder},
		{"jsonschema", schema},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(echo.Payload)))
			for b.Loop() {
				if _, err := bc.dec(echo.Payload); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCancel(b *testing.B) {
	e := benchEnv(b)
	h, err := e.modHost(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	file := e.tmp + "/cancelled"
	for b.Loop() {
		if _, err := cancelOnce(context.Background(), h, e.session(), file); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkList100 is list100's first load: each iteration loads a fleet
// this process never loaded, written before the timer restarts.
func BenchmarkList100(b *testing.B) {
	e := benchEnv(b)
	tmp := b.TempDir()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		dirs, err := writeFleet(filepath.Join(tmp, fmt.Sprint(i)), fmt.Sprintf("fleet%dx", i), listMods)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := listFleet(dirs, e.hostOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTraced is traced_vs_call's two sides, for a host profile:
//
//	go test ./bench -run '^$' -bench Traced -benchtime 3000x -cpuprofile cpu.out
func BenchmarkTraced(b *testing.B) {
	ctx := context.Background()
	e := benchEnv(b)
	tel, _, plain, err := tracedCalls(ctx, e, &countingExporter{})
	if err != nil {
		b.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	for _, on := range []bool{true, false} {
		name := "plain"
		if on {
			name = "traced"
		}
		b.Run(name, func(b *testing.B) {
			tel.SetTracing(on)
			defer tel.SetTracing(false)
			m, err := startCPU(e.hostPid)
			if err != nil {
				b.Fatal(err)
			}
			runCall(b, plain)
			self, peer, err := m.perCall(float64(b.N))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(self, "host-µs/op")
			b.ReportMetric(peer, "mod-µs/op")
		})
	}
}

// BenchmarkTracedCPU measures what tracing adds to a call's CPU, host
// and mod, side by side with the same call untraced, as
// BenchmarkActivityCPU does (blocks alternate; an iteration is 200 calls):
//
//	go test ./bench -run '^$' -bench TracedCPU -benchtime 150x
func BenchmarkTracedCPU(b *testing.B) {
	ctx := context.Background()
	e := benchEnv(b)
	tel, traced, plain, err := tracedCalls(ctx, e, &countingExporter{})
	if err != nil {
		b.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	pairedCPU(b, [2]int{e.hostPid, e.hostPid}, [2]call{plain, traced})
}

// BenchmarkActivityCPU measures what a call's 10 activity updates cost,
// side by side with the same call without them: blocks of echo and of
// echo_activity calls alternate, so that the machine's load hits both
// alike. Each iteration is one block of each. It reports the CPU per
// plain call (host, mod), what the updates add to it, and the p50 latency
// ratio, the activity10_vs_call row's figure. An iteration is 200 calls:
//
//	go test ./bench -run '^$' -bench ActivityCPU -benchtime 150x
func BenchmarkActivityCPU(b *testing.B) {
	ctx := context.Background()
	e := benchEnv(b)
	h, err := e.modHost(ctx)
	if err != nil {
		b.Fatal(err)
	}
	pairedCPU(b, [2]int{e.hostPid, e.hostPid}, [2]call{
		hostCall(h, e.session(), "echo", nil),
		hostCall(h, e.session(), "echo_activity", func(host.ActivityEvent) {}),
	})
}

// BenchmarkHookedCPU measures what a tool.call hook costs, as
// BenchmarkActivityCPU does activity: blocks of echo calls and of
// echo_hooked calls (the hooked mod in a host of its own) alternate. It
// reports the CPU per plain call (host, mod), what the hook adds to it,
// and the p50 latency ratio, the hooked_vs_call row's figure:
//
//	go test ./bench -run '^$' -bench HookedCPU -benchtime 150x
func BenchmarkHookedCPU(b *testing.B) {
	ctx := context.Background()
	e := benchEnv(b)
	plain, err := e.modHost(ctx)
	if err != nil {
		b.Fatal(err)
	}
	hooked, pid, err := e.hookedHost(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer hooked.Close()
	pairedCPU(b, [2]int{e.hostPid, pid}, [2]call{
		hostCall(plain, e.session(), "echo", nil),
		hostCall(hooked, e.session(), "echo_hooked", nil),
	})
}

// pairedCPU runs, per iteration, a block of calls of sides[0] and then of
// sides[1], whose mods run in processes pids, and reports the CPU per call
// of the first (host, mod), what the second adds to it, and the ratio of
// their p50 latencies.
func pairedCPU(b *testing.B, pids [2]int, sides [2]call) {
	ctx := context.Background()
	const block = 100
	var cpu [2][2]float64 // per side: host, mod µs per call, summed over blocks
	var lat [2][]float64
	blocks := 0
	for b.Loop() {
		for i, fn := range sides {
			m, err := startCPU(pids[i])
			if err != nil {
				b.Fatal(err)
			}
			for range block {
				start := time.Now()
				if err := fn(ctx); err != nil {
					b.Fatal(err)
				}
				// In µs, not rounded to one: a step of 1 µs would move
				// the ratio by about 0.015.
				lat[i] = append(lat[i], float64(time.Since(start))/1e3)
			}
			self, peer, err := m.perCall(block)
			if err != nil {
				b.Fatal(err)
			}
			cpu[i][0] += self
			cpu[i][1] += peer
		}
		blocks++
	}
	n := float64(blocks)
	b.ReportMetric(cpu[0][0]/n, "host-cpu-µs/call")
	b.ReportMetric(cpu[0][1]/n, "mod-cpu-µs/call")
	b.ReportMetric((cpu[1][0]-cpu[0][0])/n, "host-extra-cpu-µs/call")
	b.ReportMetric((cpu[1][1]-cpu[0][1])/n, "mod-extra-cpu-µs/call")
	b.ReportMetric(median(lat[1])/median(lat[0]), "p50-ratio")
}

// BenchmarkMCPHTTP calls echo through `modhost mcp --http` and mcpecho
// -http with go-sdk's client, as mcp_http_vs_gosdk does, and reports
// each server's CPU per call (the server, and its mod): on a busy machine
// steadier than the time per call. "2025" pins the client to protocol
// 2025-11-25, as the TypeScript client speaks it: a session, its GET
// event stream, and each answer as a server-sent event. To profile
// modhost, run `perf record -g -p PID` while it runs.
func BenchmarkMCPHTTP(b *testing.B) {
	ctx := context.Background()
	srv := benchHTTPServers(b)
	for _, bc := range []struct {
		name, url, revision string
		pid                 int
	}{
		{"modhost", srv.modURL, "", srv.modPid},
		{"gosdk", srv.sdkURL, "", srv.sdkPid},
		{"modhost_2025", srv.modURL, "2025-11-25", srv.modPid},
		{"gosdk_2025", srv.sdkURL, "2025-11-25", srv.sdkPid},
	} {
		b.Run(bc.name, func(b *testing.B) {
			client := mcp.NewClient(&mcp.Implementation{Name: "modkit-bench", Version: "v1.0.0"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: bc.url},
				&mcp.ClientSessionOptions{ProtocolVersion: bc.revision})
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			if err := checkEcho(ctx, bc.name, cs); err != nil {
				b.Fatal(err)
			}
			runTreeCPU(b, bc.pid, func() { runCall(b, echoCall(bc.name, cs)) })
		})
	}
}

// BenchmarkMCPHTTP8 is BenchmarkMCPHTTP with 8 go-sdk clients, each on a
// connection of its own, calling at once, as mcp_http8_vs_gosdk does.
func BenchmarkMCPHTTP8(b *testing.B) {
	ctx := context.Background()
	srv := benchHTTPServers(b)
	for _, bc := range []struct {
		name, url string
		pid       int
	}{
		{"modhost", srv.modURL, srv.modPid},
		{"gosdk", srv.sdkURL, srv.sdkPid},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var calls []call
			for range 8 {
				cs, err := connectHTTP(ctx, bc.name, bc.url, &http.Client{Transport: &http.Transport{}})
				if err != nil {
					b.Fatal(err)
				}
				defer cs.Close()
				calls = append(calls, echoCall(bc.name, cs))
			}
			var next atomic.Int64
			b.ReportAllocs()
			b.SetParallelism(4) // 8 callers on 2 cores
			runTreeCPU(b, bc.pid, func() {
				b.RunParallel(func(pb *testing.PB) {
					fn := calls[int(next.Add(1))%len(calls)]
					for pb.Next() {
						if err := fn(ctx); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		})
	}
}

// benchHTTPServers starts `modhost mcp --http` and mcpecho -http for b,
// stopped when it ends.
func benchHTTPServers(b *testing.B) *httpServers {
	srv, err := benchEnv(b).httpServers(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.stop)
	return srv
}

// runTreeCPU runs run, which makes b.N calls, and reports the CPU per
// call of process pid (the server) and of its children (its mod).
func runTreeCPU(b *testing.B, pid int, run func()) {
	b.Helper()
	m, err := startTreeCPU(pid)
	if err != nil {
		b.Fatal(err)
	}
	run()
	self, mod, err := m.perCall(float64(b.N))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(self, "server-cpu-µs/op")
	b.ReportMetric(mod, "mod-cpu-µs/op")
}

// treeMeter measures the CPU of a process and its children.
type treeMeter struct {
	pid   int
	start [2]time.Duration
}

func startTreeCPU(pid int) (*treeMeter, error) {
	start, err := treeCPU(pid)
	return &treeMeter{pid, start}, err
}

// perCall returns the CPU the process and its children spent since
// startTreeCPU, divided by calls, in microseconds.
func (m *treeMeter) perCall(calls float64) (self, kids float64, err error) {
	now, err := treeCPU(m.pid)
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) / calls }
	return us(now[0] - m.start[0]), us(now[1] - m.start[1]), err
}

// BenchmarkAuth calls echo through modhost's HTTP handler in this
// process, with a bearer token its OAuth resource server verified before
// (cached), and without authorization, as auth_vs_plain does; it reports
// this process's CPU per call, client and server.
func BenchmarkAuth(b *testing.B) {
	e, sides := authBench(b)
	for _, name := range []string{"token", "plain"} {
		b.Run(name, func(b *testing.B) {
			runCallCPU(b, e.hostPid, sides[name])
		})
	}
}

// authBench sets auth_vs_plain's two sides up for a benchmark.
func authBench(b *testing.B) (*env, map[string]call) {
	e := benchEnv(b)
	sides, closeAll, err := authSides(context.Background(), e)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(closeAll)
	return e, sides
}

// BenchmarkAuthCPU measures what a cached token costs a call, as
// BenchmarkActivityCPU does activity: blocks of plain calls and of calls
// with the token alternate. It reports the CPU per plain call (this
// process: client, server and host; the mod), what the token adds to it,
// and the p50 latency ratio:
//
//	go test ./bench -run '^$' -bench AuthCPU -benchtime 150x
func BenchmarkAuthCPU(b *testing.B) {
	e, sides := authBench(b)
	pairedCPU(b, [2]int{e.hostPid, e.hostPid}, [2]call{sides["plain"], sides["token"]})
}

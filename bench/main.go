package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"time"
)

// config sets how much each measurement samples.
type config struct {
	rounds        int           // pairs of measurements per row
	warmup        int           // unmeasured calls before each round
	calls         int           // measured calls per side per round
	workers       int           // concurrent callers
	concurrentFor time.Duration // per side per round
	coldStarts    int           // per side per round
	cancels       int           // per round
	decodes       int           // decodes per timed batch
	batches       int           // timed batches per side per round
	lists         int           // first loads of 100 mods per round; rounds × lists × 100 stays under the host's 4096 remembered manifests
	idleFor       time.Duration // how long a process sits idle before its memory is read
	cacheDir      string        // modkit's mod binary cache; "" for its default
	only          *regexp.Regexp
	quick         bool   // the quick sampling (for the README's heading)
	readme        string // the README whose results section the run rewrites; "" for none
}

func quickConfig() config {
	return config{rounds: 3, warmup: 50, calls: 300, workers: 8, concurrentFor: time.Second,
		coldStarts: 4, cancels: 20, decodes: 500, batches: 20, lists: 5, idleFor: time.Second}
}

func fullConfig() config {
	return config{rounds: 9, warmup: 200, calls: 2000, workers: 8, concurrentFor: 3 * time.Second,
		coldStarts: 10, cancels: 100, decodes: 2000, batches: 50, lists: 4, idleFor: time.Second}
}

func main() {
	if code, child := coldStartChild(); child {
		os.Exit(code)
	}
	if code, child := floorChild(); child {
		os.Exit(code)
	}
	quick := flag.Bool("quick", false, "sample less: finishes in under 2 minutes on 2 cores")
	only := flag.String("run", "", "measure only the rows whose name matches this regexp")
	rounds := flag.Int("rounds", 0, "rounds per row (default 3 with -quick, 9 without)")
	cacheDir := flag.String("cachedir", "", "modkit's mod binary cache (default: the host's default)")
	readme := flag.String("readme", "", "rewrite the results section of this README (bench/README.md) with the run's table, saying when, where and at which commit it was measured")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: bench [-quick] [-run REGEXP] [-rounds N] [-cachedir DIR] [-readme README.md]")
		flag.PrintDefaults()
	}
	flag.Parse()
	cfg := fullConfig()
	if *quick {
		cfg = quickConfig()
	}
	if *rounds > 0 {
		cfg.rounds = *rounds
	}
	cfg.cacheDir, cfg.quick, cfg.readme = *cacheDir, *quick, *readme
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench: -run:", err)
			os.Exit(2)
		}
		cfg.only = re
	}
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// measurement is one row of the report.
type measurement struct {
	name    string
	goal    goal
	measure func(ctx context.Context, e *env) (row, error)
}

var measurements = []measurement{
	{"call_vs_goplugin", atMost(0.45), callVsGoPlugin},
	{"hooked_vs_call", atMost(1.1), hookedVsCall},
	{"call_vs_mcp", atMost(0.25), callVsMCP},
	{"mcp_http_2026_vs_gosdk", atMost(1.3), mcpHTTP2026VsGoSDK},
	{"auth_vs_plain", atMost(1.05), authVsPlain},
	{"mcp_stdio_vs_gosdk", atMost(0.8), mcpStdioVsGoSDK},
	{"mcp_stdio_2025_vs_gosdk", atMost(1.0), mcpStdio2025VsGoSDK},
	{"mcp_stdio_ts_vs_gosdk", atMost(0.9), mcpStdioTSVsGoSDK},
	{"mcp_http_vs_gosdk", atMost(0.6), mcpHTTPVsGoSDK},
	{"mcp_http_ts_vs_gosdk", atMost(0.8), mcpHTTPTSVsGoSDK},
	{"mcp_http8_vs_gosdk", atLeast(3.0), mcpHTTP8VsGoSDK},
	{"activity10_vs_call", atMost(1.05), activityVsCall},
	{"task_vs_call", atMost(1.3), taskVsCall},
	{"balanced_hop_vs_haproxy", atMost(1.3), balancedHopVsHAProxy},
	{"task_cancel_ms", atMost(1000), taskCancelMS},
	{"traced_vs_call", atMost(1.05), tracedVsCall},
	{"concurrent_vs_goplugin", atLeast(2.5), concurrentVsGoPlugin},
	{"coldstart_vs_goplugin", atMost(0.6), coldStartVsGoPlugin},
	{"coldstart_prebuilt_vs_goplugin", atMost(1.0), coldStartPrebuiltVsGoPlugin},
	{"coldstart_confined_vs_unconfined", atMost(1.05), coldStartConfined},
	{"confined_vs_unconfined_call", atMost(1.02), confinedVsUnconfinedCall},
	{"validate_vs_json", atMost(1.5), validateVsJSON},
	{"jsonschema_vs_validate", atLeast(5), jsonschemaVsValidate},
	{"cancel_p50_ms", atMost(1), cancelP50},
	{"list100_ms", atMost(8), list100},
	{"idle_rss_vs_goplugin", atMost(0.8), idleRSS},
	{"unix_roundtrip_us", reference(), unixRoundTrip},
}

// needs names the server a row starts, by row: a row is not measured
// when its server is not on $PATH.
var needs = map[string]string{
	"balanced_hop_vs_haproxy": "haproxy",
	"task_cancel_ms":          "redis-server",
}

// installed reports whether the server m needs, if any, is on $PATH.
func (m measurement) installed() bool {
	program, ok := needs[m.name]
	if !ok {
		return true
	}
	_, err := exec.LookPath(program)
	return err == nil
}

// skipped is a row's error when what it needs is missing where it may be
// (the node tools outside CI): the row reads NaN, and the run goes on
// without failing.
type skipped struct{ err error }

func (s *skipped) Error() string { return s.err.Error() }
func (s *skipped) Unwrap() error { return s.err }

// errMeasurement marks a run in which some row could not be measured.
var errMeasurement = errors.New("some measurements failed")

func run(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	e, err := newEnv(ctx, cfg, stderr, buildBinaries)
	if err != nil {
		return err
	}
	defer e.close()
	return measureAll(ctx, e, cfg, stdout, stderr)
}

// measureAll measures the rows cfg selects in e, with cfg's sampling, and
// writes the report.
func measureAll(ctx context.Context, e *env, cfg config, stdout, stderr io.Writer) error {
	e.cfg, e.log = cfg, stderr
	var rows []row
	failedAny := false
	for _, m := range measurements {
		if cfg.only != nil && !cfg.only.MatchString(m.name) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "measuring %s…\n", m.name)
		start := time.Now()
		var r row
		var err error
		if m.installed() {
			r, err = m.measure(ctx, e)
		} else {
			err = fmt.Errorf("%s is not installed (apt-get install %[1]s)", needs[m.name])
		}
		var skip *skipped
		switch {
		case errors.As(err, &skip):
			fmt.Fprintf(stderr, "%s: not measured: %v\n", m.name, skip.err)
			r = failed(m.name, m.goal, fmt.Errorf("not measured: %w", skip.err))
		case err != nil:
			fmt.Fprintf(stderr, "%s: %v\n", m.name, err)
			r = failed(m.name, m.goal, err)
			failedAny = true
		}
		r.name, r.goal = m.name, m.goal
		fmt.Fprintf(stderr, "  %s = %s (%.1fs)\n", m.name, num(r.ratio), time.Since(start).Seconds())
		rows = append(rows, r)
	}
	if err := writeReport(stdout, rows); err != nil {
		return err
	}
	if failedAny {
		if cfg.readme != "" {
			fmt.Fprintf(stderr, "%s left as it was: some rows could not be measured\n", cfg.readme)
		}
		return errMeasurement
	}
	if cfg.readme != "" {
		return writeReadme(cfg.readme, resultsSection(thisMachine(ctx, cfg), rows))
	}
	return nil
}

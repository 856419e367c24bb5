package main

import (
	"context"
	"fmt"

	"github.com/modkit/modkit/host"
)

// hookedPkg is the echo mod's twin with a hook on every tool call.
const hookedPkg = "github.com/modkit/modkit/bench/internal/echohooked"

// hookedVsCall compares the echo call to a mod with a hook on every tool
// call (echohooked, in a host of its own, since a host runs a tool call's
// hooks in every mod that has one) with the same call to the echo mod,
// which has none: what the hook's steps (the input check by the mod's
// validator, then the hook) add to a call.
func hookedVsCall(ctx context.Context, e *env) (row, error) {
	plainHost, err := e.modHost(ctx)
	if err != nil {
		return row{}, err
	}
	h, pid, err := e.hookedHost(ctx)
	if err != nil {
		return row{}, err
	}
	defer h.Close()
	hooked, plain := hostCall(h, e.session(), "echo_hooked", nil), hostCall(plainHost, e.session(), "echo", nil)
	if err := warmAll(ctx, processWarmup*e.cfg.warmup, hooked, plain); err != nil {
		return row{}, err
	}
	var cpu [2][2][]float64 // [hooked, plain][host, mod]
	a, b, err := pairChunkedCPU(ctx, e.cfg, metered{hooked, pid, &cpu[0]}, metered{plain, e.hostPid, &cpu[1]})
	if err != nil {
		return row{}, err
	}
	r := compare("", latencySide("host.Call, hooked mod", a), latencySide("host.Call", b), roundRatios(a, b), goal{})
	r.notes = []string{fmt.Sprintf("CPU per call (median of rounds): hooked %s µs host + %s µs mod; plain %s µs host + %s µs mod",
		num(median(cpu[0][0])), num(median(cpu[0][1])), num(median(cpu[1][0])), num(median(cpu[1][1])))}
	return r, nil
}

// hookedHost loads the hooked echo mod in a host of its own and returns
// the host and the pid of the mod's process.
func (e *env) hookedHost(ctx context.Context) (*host.Host, int, error) {
	dir, err := packageDir(ctx, hookedPkg)
	if err != nil {
		return nil, 0, err
	}
	before, err := children()
	if err != nil {
		return nil, 0, err
	}
	h, err := host.Load([]string{dir}, e.hostOptions())
	if err != nil {
		return nil, 0, err
	}
	got, err := hostEcho(ctx, h, e.session(), "echo_hooked", nil)
	if err == nil {
		err = checkReply("modkit echo_hooked", got)
	}
	var pid int
	if err == nil {
		pid, err = startedChild(before)
	}
	if err != nil {
		h.Close()
		return nil, 0, err
	}
	return h, pid, nil
}

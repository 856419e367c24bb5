package host

import (
	"context"
	"fmt"

	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// raw is the generated client under p's gRPC client.
func raw(p *proc) pb.ModClient {
	if l, ok := p.rpc.(*protocol.LaneClient); ok {
		return l.PB
	}
	return p.rpc.(*protocol.GRPCClient).PB
}

// BareUnary returns a function making one bare unary gRPC round trip to the
// running process of mod id, starting it first: the baseline a host call is
// measured against.
func BareUnary(h *Host, id string) (func(context.Context) error, error) {
	for _, m := range h.mods {
		if m.man.ID != id {
			continue
		}
		p, err := m.get(context.Background())
		if err != nil {
			return nil, err
		}
		req := &pb.ActivateRequest{}
		return func(ctx context.Context) error {
			_, err := raw(p).Activate(ctx, req)
			return err
		}, nil
	}
	return nil, ErrUnknownTool
}

// BareStream returns a function running one tool call straight over the
// mod's gRPC stream, skipping everything the host adds: the cost of the
// stream alone.
func BareStream(h *Host, tool string, input []byte) (func(context.Context) error, error) {
	t, ok := h.tools[tool]
	if !ok {
		return nil, ErrUnknownTool
	}
	p, err := t.mod.get(context.Background())
	if err != nil {
		return nil, err
	}
	req := &pb.CallToolRequest{Tool: tool, Input: input, CallId: "bare"}
	return func(ctx context.Context) error {
		stream, err := raw(p).CallTool(ctx, req)
		if err != nil {
			return err
		}
		for {
			ev, err := stream.Recv()
			if err != nil {
				return err
			}
			if ev.GetOutcome() != nil {
				return nil
			}
		}
	}, nil
}

// BareOnce returns a function running one tool call with a single unary
// round trip straight to the mod, skipping everything the host adds.
func BareOnce(h *Host, tool string, input []byte) (func(context.Context) error, error) {
	t, ok := h.tools[tool]
	if !ok {
		return nil, ErrUnknownTool
	}
	p, err := t.mod.get(context.Background())
	if err != nil {
		return nil, err
	}
	req := &pb.CallToolRequest{Tool: tool, Input: input, CallId: "bare"}
	return func(ctx context.Context) error {
		_, err := raw(p).CallToolOnce(ctx, req)
		return err
	}, nil
}

// Build builds the binary of every mod of h that has none in the cache,
// starting nothing, and returns the first failure.
func Build(h *Host) error {
	var first error
	for _, m := range h.mods {
		if _, err := m.binary(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Binary returns the paths of the binary of mod id and of its build
// record, building it when the cache has none.
func Binary(h *Host, id string) (bin, record string, err error) {
	for _, m := range h.mods {
		if m.man.ID == id {
			b, err := m.binary()
			if err != nil {
				return "", "", err
			}
			return b.path, b.record, nil
		}
	}
	return "", "", ErrUnknownTool
}

// PID returns the process id of the running process of mod id, or 0.
func PID(h *Host, id string) int {
	for _, m := range h.mods {
		if m.man.ID == id {
			if p := m.current(context.Background()); p != nil {
				return p.run.PID()
			}
		}
	}
	return 0
}

// CallLane reports whether the running process of mod id takes tool calls
// on its call lane.
func CallLane(h *Host, id string) bool {
	for _, m := range h.mods {
		if m.man.ID == id {
			if p := m.current(context.Background()); p != nil {
				return p.lane != nil
			}
		}
	}
	return false
}

// LaneSteps reports whether the running process of mod id takes a call's
// steps (hooks, input checks, approval rules) on its call lane.
func LaneSteps(h *Host, id string) bool {
	for _, m := range h.mods {
		if m.man.ID == id {
			if p := m.current(context.Background()); p != nil {
				return p.lane != nil && p.lane.Steps()
			}
		}
	}
	return false
}

// LaneStepsApart reports how many of a call's steps the running process
// of mod id took on its lane apart from their call, not ahead of it.
func LaneStepsApart(h *Host, id string) int64 {
	for _, m := range h.mods {
		if m.man.ID == id {
			if p := m.current(context.Background()); p != nil && p.lane != nil {
				return p.lane.StepsApart()
			}
		}
	}
	return 0
}

// NoCallLane makes the mods h starts from now on take every request over
// gRPC.
func NoCallLane(h *Host) { h.noLane = true }

// NoLaneSteps makes the mods h starts from now on take a call's steps over
// gRPC, as a mod that serves only tool calls on its lane does.
func NoLaneSteps(h *Host) { h.noLaneSteps = true }

// KeepGraceFromMods stops h from sending the grace period to mods, so that
// only the host's backstop enforces it.
func KeepGraceFromMods(h *Host) { h.sendGrace = false }

// RunInProcess makes the loaded mod that g is run in the host's own
// process from its next start: the same server code a mod process runs,
// without the process.
func RunInProcess(h *Host, g *sdk.Generated) error {
	id := g.Mod.Metadata.ID
	for _, m := range h.mods {
		if m.man.ID == id {
			m.mu.Lock()
			defer m.mu.Unlock()
			m.inProcess = g
			return nil
		}
	}
	return fmt.Errorf("no loaded mod %s", id)
}

// ModSocket returns the unix socket address of the running process of mod
// id, starting it first, and the process's pid.
func ModSocket(h *Host, id string) (addr string, pid int, err error) {
	for _, m := range h.mods {
		if m.man.ID != id {
			continue
		}
		p, err := m.get(context.Background())
		if err != nil {
			return "", 0, err
		}
		rc := p.client.ReattachConfig()
		return rc.Addr.String(), p.run.PID(), nil
	}
	return "", 0, ErrUnknownTool
}

package host

import (
	"github.com/modkit/modkit/internal/modserver"
)

// startInProcess starts m in the host's own process: calls go straight to
// the server code a mod process runs (internal/modserver), with no build,
// no process and no gRPC, so every rule of a call is the same. The host's
// tests use it; such a mod cannot crash or be killed apart from the host.
func (m *mod) startInProcess() (*proc, error) {
	p := &proc{m: m, rpc: modserver.New(m.inProcess, m.logger())}
	if err := p.describeAndActivate(""); err != nil {
		return nil, err
	}
	return p, nil
}

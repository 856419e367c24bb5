package host

import (
	"context"
	"errors"

	"github.com/modkit/modkit/internal/modapi"
)

// checkInput asks the mod to judge a tool's input with its generated
// validator, without running the tool. It returns the problems, or an
// error when the mod could not answer.
func (p *proc) checkInput(ctx context.Context, tool string, input []byte) ([]string, error) {
	resp, err := p.rpc.CheckInput(ctx, &modapi.CheckRequest{Tool: tool, Input: input})
	if err != nil {
		return nil, err
	}
	if resp.Error != "" {
		return nil, errors.New(resp.Error)
	}
	return resp.Problems, nil
}

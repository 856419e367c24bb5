package host

import (
	"context"
	"errors"

	"github.com/modkit/modkit/internal/protocol/pb"
)

// checkInput asks the mod to judge a tool's input with its generated
// validator, without running the tool. It returns the problems, or an
// error when the mod could not answer.
func (p *proc) checkInput(ctx context.Context, tool string, input []byte) ([]string, error) {
	resp, err := p.rpc.CheckInput(ctx, &pb.CheckInputRequest{Tool: tool, Input: input})
	if err != nil {
		return nil, err
	}
	if resp.GetError() != "" {
		return nil, errors.New(resp.GetError())
	}
	return resp.GetProblems(), nil
}

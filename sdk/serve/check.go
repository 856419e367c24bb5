package serve

import (
	"context"
	"errors"
	"fmt"

	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// CheckInput judges a tool's input with the tool's decoder, the generated
// validator, without running the tool: the host asks before its hooks see
// the input, so that they see only input the tool accepts.
func (s *server) CheckInput(_ context.Context, req *pb.CheckInputRequest) (*pb.CheckInputResponse, error) {
	name := req.GetTool()
	t, ok := s.g.Tool(name)
	if !ok {
		return &pb.CheckInputResponse{Error: fmt.Sprintf("mod %s has no tool %s", s.id, name)}, nil
	}
	err := recovered("input decoder of "+name, func() error {
		_, err := s.g.Decode(t, req.GetInput())
		return err
	})
	var ie *sdk.InputError
	switch {
	case err == nil:
		return &pb.CheckInputResponse{}, nil
	case errors.As(err, &ie):
		return &pb.CheckInputResponse{Problems: ie.Problems}, nil
	}
	return &pb.CheckInputResponse{Error: err.Error()}, nil
}

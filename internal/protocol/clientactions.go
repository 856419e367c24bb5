package protocol

import (
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// actionsToProto converts client actions for the wire, in order.
func actionsToProto(as []sdk.ClientAction) []*pb.ClientAction {
	if len(as) == 0 {
		return nil
	}
	out := make([]*pb.ClientAction, len(as))
	for i, a := range as {
		out[i] = &pb.ClientAction{Kind: a.Kind, Params: a.Params}
	}
	return out
}

// actionsFromProto converts wire client actions, in order.
func actionsFromProto(as []*pb.ClientAction) []sdk.ClientAction {
	if len(as) == 0 {
		return nil
	}
	out := make([]sdk.ClientAction, len(as))
	for i, a := range as {
		out[i] = sdk.ClientAction{Kind: a.GetKind(), Params: a.GetParams()}
	}
	return out
}

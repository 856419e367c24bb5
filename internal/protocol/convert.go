package protocol

import (
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// ActivityToProto converts an activity update for the wire.
func ActivityToProto(u sdk.ActivityUpdate) *pb.Activity {
	return &pb.Activity{Kind: kindToProto(u.Kind), Text: u.Text}
}

// kindToProto converts an activity kind for the wire; an unknown kind is
// unspecified.
func kindToProto(k sdk.ActivityKind) pb.ActivityKind {
	switch k {
	case sdk.ActivityTitle:
		return pb.ActivityKind_ACTIVITY_KIND_TITLE
	case sdk.ActivityStatus:
		return pb.ActivityKind_ACTIVITY_KIND_STATUS
	case sdk.ActivityLog:
		return pb.ActivityKind_ACTIVITY_KIND_LOG
	}
	return pb.ActivityKind_ACTIVITY_KIND_UNSPECIFIED
}

// ActivityFromProto converts a wire activity update; an unknown kind gives
// an update that ActivityState ignores.
func ActivityFromProto(a *pb.Activity) sdk.ActivityUpdate {
	return sdk.ActivityUpdate{Kind: kindFromProto(a.GetKind()), Text: a.GetText()}
}

// kindFromProto converts a wire activity kind; an unknown kind is empty.
func kindFromProto(k pb.ActivityKind) sdk.ActivityKind {
	switch k {
	case pb.ActivityKind_ACTIVITY_KIND_TITLE:
		return sdk.ActivityTitle
	case pb.ActivityKind_ACTIVITY_KIND_STATUS:
		return sdk.ActivityStatus
	case pb.ActivityKind_ACTIVITY_KIND_LOG:
		return sdk.ActivityLog
	}
	return ""
}

// SessionToProto converts a session for the wire.
func SessionToProto(s sdk.Session) *pb.Session {
	return &pb.Session{Id: s.ID, Workspace: s.Workspace}
}

// SessionFromProto converts a wire session.
func SessionFromProto(s *pb.Session) sdk.Session {
	return sdk.Session{ID: s.GetId(), Workspace: s.GetWorkspace()}
}

// outputsToProto converts outputs for the wire, in order.
func outputsToProto(os []sdk.Output) []*pb.Output {
	if len(os) == 0 {
		return nil
	}
	out := make([]*pb.Output, len(os))
	for i, o := range os {
		out[i] = &pb.Output{MimeType: o.MimeType, Content: o.Content, Uri: o.URI}
	}
	return out
}

// OutputsFromProto converts wire outputs, in order.
func OutputsFromProto(os []*pb.Output) []sdk.Output {
	if len(os) == 0 {
		return nil
	}
	out := make([]sdk.Output, len(os))
	for i, o := range os {
		out[i] = sdk.Output{MimeType: o.GetMimeType(), Content: o.GetContent(), URI: o.GetUri()}
	}
	return out
}

package protocol

import (
	"context"
	"errors"
	"io"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

var _ modapi.Features = (*GRPCClient)(nil)

// errNoFeatures is the ModFeatures call of a client made without the
// service's client.
var errNoFeatures = errors.New("the mod's connection has no ModFeatures client")

// ReadResource implements modapi.Features.
func (c *GRPCClient) ReadResource(ctx context.Context, req *modapi.ResourceRequest) (*modapi.ResourceResponse, error) {
	if c.Features == nil {
		return nil, errNoFeatures
	}
	resp, err := c.Features.ReadResource(ctx, &pb.ReadResourceRequest{
		Uri: req.URI, Template: req.Template, Session: SessionToProto(req.Session), Today: req.Today,
		CallId: req.CallID, GraceMillis: req.Grace.Milliseconds(), MaxResultBytes: int64(req.MaxResultBytes),
	})
	if err != nil {
		return nil, c.wire(err, nil)
	}
	out := &modapi.ResourceResponse{NotFound: resp.GetNotFound(), Error: resp.GetError()}
	if rc := resp.GetContents(); rc != nil {
		out.URI, out.Contents = rc.GetUri(), contentsFromProto(rc)
	}
	return out, nil
}

// GetPrompt implements modapi.Features.
func (c *GRPCClient) GetPrompt(ctx context.Context, req *modapi.PromptRequest) (*modapi.PromptResponse, error) {
	if c.Features == nil {
		return nil, errNoFeatures
	}
	resp, err := c.Features.GetPrompt(ctx, &pb.GetPromptRequest{
		Id: req.ID, Arguments: req.Arguments, Session: SessionToProto(req.Session), Today: req.Today,
		CallId: req.CallID, GraceMillis: req.Grace.Milliseconds(), MaxResultBytes: int64(req.MaxResultBytes),
		Answers: answersToProto(req.Answers), CanAsk: kindsToProto(req.CanAsk),
	})
	if err != nil {
		return nil, c.wire(err, nil)
	}
	out := &modapi.PromptResponse{Error: resp.GetError(), Questions: questionsFromProto(resp.GetQuestions()), Unasked: kindsFromProto(resp.GetUnasked())}
	for _, m := range resp.GetMessages() {
		out.Messages = append(out.Messages, messageFromProto(m))
	}
	return out, nil
}

// Complete implements modapi.Features.
func (c *GRPCClient) Complete(ctx context.Context, req *modapi.CompleteRequest) (*modapi.CompleteResponse, error) {
	if c.Features == nil {
		return nil, errNoFeatures
	}
	resp, err := c.Features.Complete(ctx, &pb.CompleteRequest{
		Prompt: req.Prompt, Template: req.Template, Argument: req.Argument, Value: req.Value, Context: req.Context,
		Session: SessionToProto(req.Session), Today: req.Today, CallId: req.CallID, GraceMillis: req.Grace.Milliseconds(),
	})
	if err != nil {
		return nil, c.wire(err, nil)
	}
	return &modapi.CompleteResponse{
		Completion: sdk.Completion{Values: resp.GetValues(), Total: int(resp.GetTotal()), HasMore: resp.GetHasMore()},
		Error:      resp.GetError(),
	}, nil
}

// WatchResources implements modapi.Features.
func (c *GRPCClient) WatchResources(ctx context.Context, updated func(uri string)) error {
	if c.Features == nil {
		return errNoFeatures
	}
	stream, err := c.Features.WatchResources(ctx, &pb.WatchResourcesRequest{})
	if err != nil {
		return c.wire(err, nil)
	}
	for {
		ev, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return c.wire(err, nil)
		}
		updated(ev.GetUri())
	}
}

// FeaturesServer serves the ModFeatures service of a mod whose Impl is a
// modapi.Features.
type FeaturesServer struct {
	pb.UnimplementedModFeaturesServer
	Impl modapi.Mod
}

func (s *FeaturesServer) features() (modapi.Features, error) {
	f, ok := s.Impl.(modapi.Features)
	if !ok {
		return nil, status.Error(codes.Unimplemented, "the mod serves no resources, prompts or completions")
	}
	return f, nil
}

// ReadResource implements pb.ModFeaturesServer.
func (s *FeaturesServer) ReadResource(ctx context.Context, req *pb.ReadResourceRequest) (*pb.ReadResourceResponse, error) {
	f, err := s.features()
	if err != nil {
		return nil, err
	}
	resp, err := f.ReadResource(ctx, &modapi.ResourceRequest{
		URI: req.GetUri(), Template: req.GetTemplate(), Session: SessionFromProto(req.GetSession()), Today: req.GetToday(),
		MaxResultBytes: int(req.GetMaxResultBytes()), Run: modapi.Run{CallID: req.GetCallId(), Grace: millis(req.GetGraceMillis())},
	})
	if err != nil {
		return nil, err
	}
	out := &pb.ReadResourceResponse{NotFound: resp.NotFound, Error: resp.Error}
	if !resp.NotFound && resp.Error == "" {
		out.Contents = contentsToProto(resp.URI, resp.Contents)
	}
	return out, nil
}

// GetPrompt implements pb.ModFeaturesServer.
func (s *FeaturesServer) GetPrompt(ctx context.Context, req *pb.GetPromptRequest) (*pb.GetPromptResponse, error) {
	f, err := s.features()
	if err != nil {
		return nil, err
	}
	resp, err := f.GetPrompt(ctx, &modapi.PromptRequest{
		ID: req.GetId(), Arguments: req.GetArguments(), Session: SessionFromProto(req.GetSession()), Today: req.GetToday(),
		MaxResultBytes: int(req.GetMaxResultBytes()), Run: modapi.Run{CallID: req.GetCallId(), Grace: millis(req.GetGraceMillis())},
		Answers: answersFromProto(req.GetAnswers()), CanAsk: kindsFromProto(req.GetCanAsk()),
	})
	if err != nil {
		return nil, err
	}
	out := &pb.GetPromptResponse{Error: resp.Error, Questions: questionsToProto(resp.Questions), Unasked: kindsToProto(resp.Unasked)}
	for _, m := range resp.Messages {
		out.Messages = append(out.Messages, messageToProto(m))
	}
	return out, nil
}

// Complete implements pb.ModFeaturesServer.
func (s *FeaturesServer) Complete(ctx context.Context, req *pb.CompleteRequest) (*pb.CompleteResponse, error) {
	f, err := s.features()
	if err != nil {
		return nil, err
	}
	resp, err := f.Complete(ctx, &modapi.CompleteRequest{
		Prompt: req.GetPrompt(), Template: req.GetTemplate(),
		CompletionRequest: sdk.CompletionRequest{Argument: req.GetArgument(), Value: req.GetValue(), Context: req.GetContext()},
		Session:           SessionFromProto(req.GetSession()), Today: req.GetToday(),
		Run: modapi.Run{CallID: req.GetCallId(), Grace: millis(req.GetGraceMillis())},
	})
	if err != nil {
		return nil, err
	}
	return &pb.CompleteResponse{Values: resp.Values, Total: int32(resp.Total), HasMore: resp.HasMore, Error: resp.Error}, nil
}

// WatchResources implements pb.ModFeaturesServer.
func (s *FeaturesServer) WatchResources(_ *pb.WatchResourcesRequest, stream pb.ModFeatures_WatchResourcesServer) error {
	f, err := s.features()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	err = f.WatchResources(ctx, func(uri string) {
		if stream.Send(&pb.ResourceUpdated{Uri: uri}) != nil {
			cancel()
		}
	})
	if ctx.Err() != nil {
		return nil
	}
	return err
}

func contentsToProto(uri string, c sdk.ResourceContents) *pb.ResourceContents {
	return &pb.ResourceContents{Uri: uri, MimeType: c.MIMEType, Text: c.Text, Blob: c.Blob}
}

func contentsFromProto(c *pb.ResourceContents) sdk.ResourceContents {
	return sdk.ResourceContents{MIMEType: c.GetMimeType(), Text: c.GetText(), Blob: c.GetBlob()}
}

func messageToProto(m sdk.PromptMessage) *pb.PromptMessage {
	out := &pb.PromptMessage{Role: string(m.Role), Text: m.Text}
	if m.Image != nil {
		out.ImageMimeType, out.ImageData = m.Image.MIMEType, m.Image.Data
	}
	if m.Resource != nil {
		out.Resource = contentsToProto(m.Resource.URI, m.Resource.ResourceContents)
	}
	return out
}

func messageFromProto(m *pb.PromptMessage) sdk.PromptMessage {
	out := sdk.PromptMessage{Role: sdk.Role(m.GetRole()), Text: m.GetText()}
	if m.GetImageMimeType() != "" || len(m.GetImageData()) > 0 {
		out.Image = &sdk.Image{MIMEType: m.GetImageMimeType(), Data: m.GetImageData()}
	}
	if r := m.GetResource(); r != nil {
		out.Resource = &sdk.EmbeddedResource{URI: r.GetUri(), ResourceContents: contentsFromProto(r)}
	}
	return out
}

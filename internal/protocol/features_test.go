package protocol_test

import (
	"context"
	"reflect"
	"testing"

	"google.golang.org/grpc"

	"github.com/modkit/modkit/internal/mcpbridge/testdata/conformance"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/modserver"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// featuresOverGRPC serves the conformance fixture's ModFeatures over an
// in-memory gRPC connection and returns the host's client of it and the
// mod's server.
func featuresOverGRPC(t *testing.T) (*protocol.GRPCClient, *modserver.Server) {
	t.Helper()
	srv := modserver.New(conformance.Modkit(), nil)
	conn := protocol.GRPCConn(t, func(gs *grpc.Server) {
		pb.RegisterModServer(gs, &protocol.GRPCServer{Impl: srv})
		pb.RegisterModFeaturesServer(gs, &protocol.FeaturesServer{Impl: srv})
	})
	return &protocol.GRPCClient{PB: pb.NewModClient(conn), Features: pb.NewModFeaturesClient(conn)}, srv
}

func TestFeaturesRoundTrip(t *testing.T) {
	t.Parallel()
	c, _ := featuresOverGRPC(t)
	ctx := context.Background()

	rr, err := c.ReadResource(ctx, &modapi.ResourceRequest{URI: "test://template/5/data", Template: "test://template/{id}/data"})
	if err != nil || rr.URI != "test://template/5/data" || rr.Contents.MIMEType != "application/json" || rr.Contents.Text == "" {
		t.Errorf("template read: got %+v, %v", rr, err)
	}
	rr, err = c.ReadResource(ctx, &modapi.ResourceRequest{URI: "test://static-binary"})
	if err != nil || len(rr.Contents.Blob) == 0 || rr.Contents.Text != "" {
		t.Errorf("binary read: got %+v, %v", rr, err)
	}
	rr, err = c.ReadResource(ctx, &modapi.ResourceRequest{URI: "test://template/missing/data", Template: "test://template/{id}/data"})
	if err != nil || !rr.NotFound {
		t.Errorf("missing: got %+v, %v; want NotFound", rr, err)
	}
	rr, err = c.ReadResource(ctx, &modapi.ResourceRequest{URI: "test://static-text", MaxResultBytes: 5})
	if err != nil || rr.Error == "" {
		t.Errorf("over the cap: got %+v, %v; want an error", rr, err)
	}

	pr, err := c.GetPrompt(ctx, &modapi.PromptRequest{ID: "test_prompt_with_embedded_resource", Arguments: map[string]string{"resourceUri": "test://r"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []sdk.PromptMessage{
		{Resource: &sdk.EmbeddedResource{URI: "test://r", ResourceContents: sdk.ResourceContents{MIMEType: "text/plain", Text: "Embedded resource content for testing."}}},
		{Role: sdk.RoleUser, Text: "Please process the embedded resource above."},
	}
	if !reflect.DeepEqual(pr.Messages, want) {
		t.Errorf("prompt: got %+v, want %+v", pr.Messages, want)
	}
	pr, err = c.GetPrompt(ctx, &modapi.PromptRequest{ID: "test_prompt_with_image"})
	if err != nil || pr.Messages[0].Image == nil || pr.Messages[0].Image.MIMEType != "image/png" || len(pr.Messages[0].Image.Data) == 0 {
		t.Errorf("image prompt: got %+v, %v", pr, err)
	}

	cr, err := c.Complete(ctx, &modapi.CompleteRequest{Template: "test://template/{id}/data", CompletionRequest: sdk.CompletionRequest{Argument: "id", Value: "4"}})
	if err != nil || !reflect.DeepEqual(cr.Values, []string{"42"}) || cr.Total != 1 {
		t.Errorf("complete: got %+v, %v", cr, err)
	}
}

// TestWatchResources activates the fixture mod, whose goroutine changes
// its watched resource every second, and waits for the update to cross
// the stream.
func TestWatchResources(t *testing.T) {
	t.Parallel()
	c, srv := featuresOverGRPC(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- c.WatchResources(ctx, func(uri string) {
			select {
			case got <- uri:
			default:
			}
		})
	}()
	if _, err := srv.Activate(ctx, &modapi.ActivateRequest{}); err != nil {
		t.Fatal(err)
	}
	if uri := <-got; uri != "test://watched-resource" {
		t.Errorf("got an update of %s, want test://watched-resource", uri)
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("after cancel: got %v, want context.Canceled", err)
	}
}

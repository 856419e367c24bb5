package protocol_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol"
	"github.com/modkit/modkit/sdk"
)

func TestOutcomeActionsRoundTrip(t *testing.T) {
	t.Parallel()
	actions := []sdk.ClientAction{
		{Kind: "open_file", Params: json.RawMessage(`{"path":"a.md","line":3}`)},
		{Kind: "mark", Params: json.RawMessage(`{}`)},
	}
	in := modapi.Outcome{Status: modapi.StatusCompleted, Text: "t", Actions: actions}
	if got := protocol.OutcomeFromProto(protocol.OutcomeToProto(&in)); !reflect.DeepEqual(got, in) {
		t.Errorf("completed: got %+v, want %+v", got, in)
	}
	failed := modapi.Outcome{Status: modapi.StatusFailed, Error: "e", Actions: actions}
	if got := protocol.OutcomeFromProto(protocol.OutcomeToProto(&failed)); got.Actions != nil {
		t.Errorf("failed: got actions %+v, want none", got.Actions)
	}
}

package host_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/modkit/modkit/host"
)

// echoInput returns a quick_echo input of exactly n bytes.
func echoInput(n int) json.RawMessage {
	return json.RawMessage(`{"text":"` + strings.Repeat("x", n-len(`{"text":""}`)) + `"}`)
}

// TestRequestSizeLimit checks that an input over the host's request limit
// is refused before any mod sees it, with a message naming the limit and
// blaming no mod, even with another mod's hook on every call.
func TestRequestSizeLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		opts  *host.Options
		size  int
		limit int
	}{
		{"option", &host.Options{MaxRequestBytes: 1000}, 1001, 1000},
		{"default", nil, 4<<20 + 1, 4 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := load(t, tt.opts, quickDir, crashyDir) // crashy hooks every call
			res, err := h.Call(context.Background(), &host.CallRequest{Tool: "quick_echo", Input: echoInput(tt.size), Session: session(t)})
			if err != nil {
				t.Fatal(err)
			}
			want := "the input is " + strconv.Itoa(tt.size) + " bytes, over the host's limit of " + strconv.Itoa(tt.limit) + " bytes per request"
			if res.Status != host.StatusFailed || res.Error != want {
				t.Errorf("got %s %q, want failed %q", res.Status, res.Error, want)
			}
			// At the limit the call goes ahead (its echo may then be over
			// the result limit).
			res = call(t, h, "quick_echo", string(echoInput(tt.limit)))
			if strings.Contains(res.Error, "per request") {
				t.Errorf("at the limit: got %q, want the input accepted", res.Error)
			}
		})
	}
}

// TestLargeInputCrossesTransport checks that the gRPC limits between host
// and mod follow the options: an input larger than gRPC's default 4 MiB
// reaches another mod's hook and the tool, and its echo comes back, over
// both call paths.
func TestLargeInputCrossesTransport(t *testing.T) {
	t.Parallel()
	h := load(t, &host.Options{MaxRequestBytes: 6 << 20, MaxResultBytes: 8 << 20}, quickDir, crashyDir)
	input := echoInput(5 << 20)
	for _, watch := range []bool{false, true} {
		req := &host.CallRequest{Tool: "quick_echo", Input: input, Session: session(t)}
		if watch {
			req.OnActivity = func(host.ActivityEvent) {}
		}
		res, err := h.Call(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, res, host.StatusCompleted)
		if len(res.Text) != len(input)-len(`{"text":""}`) {
			t.Errorf("streamed %v: got a %d-byte echo, want %d", watch, len(res.Text), len(input)-len(`{"text":""}`))
		}
	}
}

// BenchmarkRejectHostileCall measures refusing hostile input end to end:
// the mod's generated validator, the trip back and the host's message.
// Goals: 20,000 unknown fields in under 1 s with a message under 64 KiB,
// a 1 MB-digit number in under 100 ms.
func BenchmarkRejectHostileCall(b *testing.B) {
	var fields strings.Builder
	fields.WriteString(`{"text":"x"`)
	for i := range 20000 {
		fields.WriteString(`,"f` + strconv.Itoa(i) + `":1`)
	}
	fields.WriteString("}")
	tests := []struct{ name, tool, input string }{
		{"20000_unknown_fields", "quick_echo", fields.String()},
		{"1MB-digit_number", "quick_activity", `{"logs":` + strings.Repeat("7", 1<<20) + `}`},
	}
	h := load(b, nil, quickDir)
	call(b, h, "quick_echo", `{"text":"start"}`)
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			req := &host.CallRequest{Tool: tt.tool, Input: json.RawMessage(tt.input), Session: session(b)}
			for b.Loop() {
				res, err := h.Call(context.Background(), req)
				if err != nil || res.Status != host.StatusFailed || len(res.Text) > 64<<10 {
					b.Fatalf("got %v, %s with a %d-byte text", err, res.Status, len(res.Text))
				}
			}
		})
	}
}

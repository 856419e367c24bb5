package protocol

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/protocol/pb"
	"github.com/modkit/modkit/sdk"
)

// laneMod is a mod whose tool calls run call; it implements nothing else.
type laneMod struct {
	modapi.Mod
	call func(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error)
}

func (m laneMod) CallTool(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
	return m.call(ctx, req)
}

// echo completes each call with its input as text, reporting activity
// first when the input says how many updates.
func echo(_ context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
	resp := &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCompleted, Text: string(req.Input)}}
	var n int
	fmt.Sscan(string(req.Input), &n)
	for i := range n {
		u := sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: fmt.Sprint(i)}
		if req.Live() {
			req.Deliver(u)
		} else {
			resp.Activity = append(resp.Activity, u)
		}
	}
	return resp, nil
}

// newLane returns a client whose calls srv serves over an in-memory lane.
func newLane(t *testing.T, srv *LaneServer, opts LaneOptions) *LaneClient {
	t.Helper()
	a, b := net.Pipe()
	if srv.MaxMessageBytes == 0 {
		srv.MaxMessageBytes = 1 << 20
	}
	if opts.MaxMessageBytes == 0 {
		opts.MaxMessageBytes = srv.MaxMessageBytes
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(b) }()
	c := NewLaneClient(&GRPCClient{}, a, opts)
	t.Cleanup(func() {
		c.Close()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return c
}

// rawLane returns a client and the mod's end of its lane, for a test to
// play a mod that breaks the protocol.
func rawLane(t testing.TB, opts LaneOptions) (*LaneClient, net.Conn) {
	t.Helper()
	a, b := net.Pipe()
	if opts.MaxMessageBytes == 0 {
		opts.MaxMessageBytes = 1 << 10
	}
	c := NewLaneClient(&GRPCClient{}, a, opts)
	t.Cleanup(func() {
		c.Close()
		b.Close()
	})
	return c, b
}

// readCall reads the next frame the host sent, which must be a call.
func readCall(t *testing.T, fr *frameReader) uint64 {
	t.Helper()
	id, kind, _, err := fr.next()
	if err != nil || kind != kindCall {
		t.Errorf("got a %s frame, error %v; want a call", kind, err)
	}
	return id
}

func transportKind(err error) (modapi.TransportKind, bool) {
	te := modapi.AsTransport(err)
	if te == nil {
		return 0, false
	}
	return te.Kind, true
}

// msg is the transport's words for err.
func msg(err error) string {
	if te := modapi.AsTransport(err); te != nil {
		return te.Msg
	}
	return ""
}

func TestLaneConcurrentCalls(t *testing.T) {
	t.Parallel()
	c := newLane(t, &LaneServer{Impl: laneMod{call: echo}}, LaneOptions{})
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			in := fmt.Sprintf("%d", i%4)
			resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Input: json.RawMessage(in)})
			if err != nil {
				t.Errorf("call %d: %v", i, err)
				return
			}
			if resp.Outcome.Text != in || len(resp.Activity) != i%4 {
				t.Errorf("call %d: got %q with %d updates, want %q with %d", i, resp.Outcome.Text, len(resp.Activity), in, i%4)
			}
		})
	}
	wg.Wait()
}

// TestLaneLiveActivity checks that updates reach OnActivity in order, on
// the caller's goroutine, before the outcome.
func TestLaneLiveActivity(t *testing.T) {
	t.Parallel()
	c := newLane(t, &LaneServer{Impl: laneMod{call: echo}}, LaneOptions{})
	var got []string
	resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Input: json.RawMessage("50"),
		OnActivity: func(u sdk.ActivityUpdate) { got = append(got, u.Text) }})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, 50)
	for i := range want {
		want[i] = fmt.Sprint(i)
	}
	if !reflect.DeepEqual(got, want) || len(resp.Activity) != 0 || resp.Outcome.Text != "50" {
		t.Errorf("got updates %v, %d in the response, outcome %q; want 0 to 49 live and outcome 50", got, len(resp.Activity), resp.Outcome.Text)
	}
}

// roomLog is a modapi.ActivityWatcher that records, in order, the room
// made for activity ("room n") and the updates delivered (their kinds).
type roomLog []string

func (r *roomLog) MakeRoom(logs int) { *r = append(*r, fmt.Sprint("room ", logs)) }

func (r *roomLog) Activity(u sdk.ActivityUpdate) { *r = append(*r, string(u.Kind)) }

// TestLaneActivityRoom checks that the caller's Watcher is told how many
// log entries are among the updates that arrived together, before they
// reach it.
func TestLaneActivityRoom(t *testing.T) {
	t.Parallel()
	c := newLane(t, &LaneServer{Impl: laneMod{call: func(_ context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
		req.Deliver(sdk.ActivityUpdate{Kind: sdk.ActivityStatus, Text: "s"})
		for range 3 {
			req.Deliver(sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "l"})
		}
		return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCompleted}}, nil
	}}}, LaneOptions{})
	var got roomLog
	_, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Watcher: &got})
	if err != nil {
		t.Fatal(err)
	}
	// The updates may come in more than one frame: each frame's room
	// comes first and counts its log entries.
	left, ok := 0, len(got) > 0 && strings.HasPrefix(got[0], "room ")
	var kinds []string
	for _, e := range got {
		var n int
		if _, err := fmt.Sscanf(e, "room %d", &n); err == nil {
			ok = ok && left == 0
			left = n
			continue
		}
		if e == string(sdk.ActivityLog) {
			left--
		}
		kinds = append(kinds, e)
	}
	if !ok || left != 0 || !slices.Equal(kinds, []string{"status", "log", "log", "log"}) {
		t.Errorf("got %q, want each frame's room with its count of log entries first, then status and three logs", got)
	}
}

// TestLaneActivityWhileHandlerBlocks checks that updates a handler posts
// reach OnActivity while the handler still runs: it blocks after posting
// until the caller has seen them, so the call ends only if they left
// before the outcome was sent.
func TestLaneActivityWhileHandlerBlocks(t *testing.T) {
	t.Parallel()
	seen := make(chan struct{})
	blocked := func(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
		req.Deliver(sdk.ActivityUpdate{Kind: sdk.ActivityStatus, Text: "waiting"})
		req.Deliver(sdk.ActivityUpdate{Kind: sdk.ActivityLog, Text: "still waiting"})
		select {
		case <-seen:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCompleted, Text: "done"}}, nil
	}
	c := newLane(t, &LaneServer{Impl: laneMod{call: blocked}}, LaneOptions{})
	var got []string
	resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", OnActivity: func(u sdk.ActivityUpdate) {
		if got = append(got, u.Text); len(got) == 2 {
			close(seen)
		}
	}})
	if err != nil || resp.Outcome.Text != "done" {
		t.Fatalf("got %+v, %v; want outcome done", resp, err)
	}
	if strings.Join(got, ",") != "waiting,still waiting" {
		t.Errorf("got updates %q, want waiting, still waiting", got)
	}
}

// TestLaneCarriesTheRequest checks every field of a call and an outcome.
func TestLaneCarriesTheRequest(t *testing.T) {
	t.Parallel()
	var seen *modapi.CallRequest
	srv := &LaneServer{Impl: laneMod{call: func(_ context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
		seen = req
		return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusAsking,
			Questions: []modapi.Question{{Kind: modapi.AskForm, Key: "name"}}}}, nil
	}}}
	c := newLane(t, srv, LaneOptions{})
	req := &modapi.CallRequest{Tool: "t", Input: json.RawMessage(`{"a":1}`), Session: sdk.Session{ID: "s", Workspace: "/w"},
		CallID: "c1", Label: "l", Today: "2026-01-02", Grace: 1500 * 1e6, MaxResultBytes: 9,
		CanAsk: []modapi.QuestionKind{modapi.AskForm}, Caller: testCaller}
	resp, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(seen, req) {
		t.Errorf("the mod got %+v, want %+v", seen, req)
	}
	if resp.Outcome.Status != modapi.StatusAsking || len(resp.Outcome.Questions) != 1 || resp.Outcome.Questions[0].Key != "name" {
		t.Errorf("got outcome %+v, want the question", resp.Outcome)
	}
}

// TestLaneCancel checks that a cancelled call returns at once with its
// context's error and that the handler sees its context cancelled; the
// outcome it sends later is dropped, and the lane goes on.
func TestLaneCancel(t *testing.T) {
	t.Parallel()
	started, sawDone := make(chan struct{}), make(chan struct{})
	srv := &LaneServer{Impl: laneMod{call: func(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
		if string(req.Input) != "wait" {
			return echo(ctx, req)
		}
		close(started)
		<-ctx.Done()
		close(sawDone)
		return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCancelled}}, nil
	}}}
	ended := make(chan string, 2)
	srv.Begin = func(_ context.Context, method string, req any) func() {
		id := req.(*pb.CallToolRequest).GetCallId()
		return func() { ended <- method + " " + id }
	}
	c := newLane(t, srv, LaneOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	_, err := c.CallTool(ctx, &modapi.CallRequest{Tool: "t", CallID: "w", Input: json.RawMessage("wait")})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	<-sawDone
	resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", CallID: "n", Input: json.RawMessage("2")})
	if err != nil || resp.Outcome.Text != "2" {
		t.Fatalf("next call: got %v, %v; want outcome 2", resp, err)
	}
	// n's end was noted before its outcome left; w's, at some point.
	m := pb.Mod_CallTool_FullMethodName
	got := map[string]bool{}
	for len(ended) > 0 {
		got[<-ended] = true
	}
	if !got[m+" n"] {
		t.Errorf("got handlers ended %v when n returned, want n among them", got)
	}
	if !got[m+" w"] {
		if e := <-ended; e != m+" w" {
			t.Errorf("got %q ended, want w", e)
		}
	}
}

// isReading reports whether a caller holds the lane's read token.
func (c *LaneClient) isReading() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reader != nil
}

// TestLaneReaderCancelled checks that a caller reading the lane for
// others returns when its context ends, even within a frame, and that a
// call still waiting reads on: the frame comes whole.
func TestLaneReaderCancelled(t *testing.T) {
	t.Parallel()
	c, mod := rawLane(t, LaneOptions{})
	fr := newFrameReader(mod, 1<<10)
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, &modapi.CallRequest{Tool: "t"})
		first <- err
	}()
	readCall(t, fr)
	for !c.isReading() { // the first call reads the lane
		runtime.Gosched()
	}
	type result struct {
		resp *modapi.CallResponse
		err  error
	}
	second := make(chan result, 1)
	go func() {
		resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t"})
		second <- result{resp, err}
	}()
	id := readCall(t, fr)
	frame, _ := appendFrame(nil, id, kindOutcome, &pb.LaneOutcome{Outcome: &pb.Outcome{Status: pb.Status_STATUS_COMPLETED, Text: "whole"}}, 1<<10)
	mod.Write(frame[:frameHeaderLen+1]) // the first call reads them
	cancel()
	if _, kind, _, err := fr.next(); err != nil || kind != kindCancel {
		t.Fatalf("got a %s frame, error %v; want a cancel", kind, err)
	}
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Fatalf("reading call: got %v, want context.Canceled", err)
	}
	mod.Write(frame[frameHeaderLen+1:])
	r := <-second
	if r.err != nil || r.resp.Outcome.Text != "whole" {
		t.Fatalf("waiting call: got %v, %v; want outcome whole", r.resp, r.err)
	}
}

// sleepers is how many callers sleep while another reads the lane.
func (c *LaneClient) sleepers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.idle)
}

// TestLaneTokenPassed checks that the read token goes on while calls
// wait: the reading call's outcome comes while one sleeping call leaves
// for its context and another sleeps on; the one left reads its outcome.
func TestLaneTokenPassed(t *testing.T) {
	t.Parallel()
	c, mod := rawLane(t, LaneOptions{})
	fr := newFrameReader(mod, 1<<10)
	type result struct {
		resp *modapi.CallResponse
		err  error
	}
	call := func(ctx context.Context) chan result {
		ch := make(chan result, 1)
		go func() {
			resp, err := c.CallTool(ctx, &modapi.CallRequest{Tool: "t"})
			ch <- result{resp, err}
		}()
		return ch
	}
	reader := call(context.Background())
	readerID := readCall(t, fr)
	for !c.isReading() {
		runtime.Gosched()
	}
	ctx, cancel := context.WithCancel(context.Background())
	leaving := call(ctx)
	readCall(t, fr)
	staying := call(context.Background())
	stayingID := readCall(t, fr)
	for c.sleepers() < 2 {
		runtime.Gosched()
	}
	outcome := func(id uint64, text string) {
		frame, _ := appendFrame(nil, id, kindOutcome, &pb.LaneOutcome{Outcome: &pb.Outcome{Status: pb.Status_STATUS_COMPLETED, Text: text}}, 1<<10)
		if _, err := mod.Write(frame); err != nil {
			t.Fatal(err)
		}
	}
	// The token goes to one of the two sleeping calls while the one
	// leaving may have it or not: either way the one staying must read.
	cancel()
	outcome(readerID, "reader")
	if r := <-reader; r.err != nil || r.resp.Outcome.Text != "reader" {
		t.Fatalf("reading call: got %v, %v; want outcome reader", r.resp, r.err)
	}
	if _, kind, _, err := fr.next(); err != nil || kind != kindCancel {
		t.Fatalf("got a %s frame, error %v; want a cancel", kind, err)
	}
	if r := <-leaving; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("leaving call: got %v, want context.Canceled", r.err)
	}
	outcome(stayingID, "staying")
	if r := <-staying; r.err != nil || r.resp.Outcome.Text != "staying" {
		t.Fatalf("staying call: got %v, %v; want outcome staying", r.resp, r.err)
	}
}

// TestLaneModGoneMidCall checks that calls pending when the mod's end
// closes fail as broken, and so does every later call.
func TestLaneModGoneMidCall(t *testing.T) {
	t.Parallel()
	c, mod := rawLane(t, LaneOptions{})
	fr := newFrameReader(mod, 1<<10)
	done := make(chan error, 1)
	go func() {
		_, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t"})
		done <- err
	}()
	readCall(t, fr)
	mod.Close()
	if k, ok := transportKind(<-done); !ok || k != modapi.TransportBroken {
		t.Errorf("pending call: got kind %v (%v), want broken", k, ok)
	}
	_, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t"})
	if k, ok := transportKind(err); !ok || k != modapi.TransportBroken || msg(err) != "the mod closed the call lane" {
		t.Errorf("later call: got %v, want broken, the mod closed the lane", err)
	}
}

// TestLaneSizeLimits checks both directions: a request over the host's
// limit is refused before it is sent, an outcome over the mod's limit
// comes back as a failure naming the size, and a mod that sends a frame
// over the host's limit anyway fails that call alone.
func TestLaneSizeLimits(t *testing.T) {
	t.Parallel()
	c := newLane(t, &LaneServer{Impl: laneMod{call: echo}, MaxMessageBytes: 300}, LaneOptions{})
	_, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Input: json.RawMessage(strings.Repeat("7", 400))})
	if k, _ := transportKind(err); k != modapi.TransportRequestTooLarge || !strings.Contains(msg(err), "the host's call frame is 4") ||
		!strings.Contains(msg(err), "over the 300-byte message limit") {
		t.Errorf("request: got %v, want too large naming the size and the limit", err)
	}
	// The outcome carries the input twice: the request is under the
	// limit, the outcome over it.
	srv := &LaneServer{Impl: laneMod{call: func(_ context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
		return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCompleted, Text: string(req.Input), Result: req.Input}}, nil
	}}, MaxMessageBytes: 300}
	c = newLane(t, srv, LaneOptions{})
	_, err = c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Input: json.RawMessage(strings.Repeat("7", 200))})
	if k, _ := transportKind(err); k != modapi.TransportResponseTooLarge || !strings.Contains(msg(err), "the mod's outcome is 4") {
		t.Errorf("outcome: got %v, want too large naming the outcome's size", err)
	}
	if resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Input: json.RawMessage("1")}); err != nil || resp.Outcome.Text != "1" {
		t.Errorf("next call: got %v, %v; want outcome 1", resp, err)
	}

	raw, mod := rawLane(t, LaneOptions{MaxMessageBytes: 100})
	fr := newFrameReader(mod, 1<<10)
	done := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := raw.CallTool(context.Background(), &modapi.CallRequest{Tool: "t"})
			done <- err
		}()
	}
	a, b := readCall(t, fr), readCall(t, fr)
	big, _ := appendFrame(nil, a, kindOutcome, &pb.LaneOutcome{Outcome: &pb.Outcome{Text: strings.Repeat("x", 200)}}, 1<<10)
	small, _ := appendFrame(nil, b, kindOutcome, &pb.LaneOutcome{Outcome: &pb.Outcome{Status: pb.Status_STATUS_COMPLETED, Text: "ok"}}, 1<<10)
	mod.Write(append(big, small...))
	var kinds []modapi.TransportKind
	for range 2 {
		if err := <-done; err != nil {
			k, _ := transportKind(err)
			kinds = append(kinds, k)
		}
	}
	if !reflect.DeepEqual(kinds, []modapi.TransportKind{modapi.TransportResponseTooLarge}) {
		t.Errorf("got failures %v, want one response too large", kinds)
	}
}

// TestLaneHostileMod checks that a mod writing what the host never asked
// for breaks its lane, not the host: pending calls fail as broken, and the
// host hears of it once.
func TestLaneHostileMod(t *testing.T) {
	t.Parallel()
	outcome := func(id uint64) []byte {
		b, _ := appendFrame(nil, id, kindOutcome, &pb.LaneOutcome{Outcome: &pb.Outcome{Text: "x"}}, 1<<10)
		return b
	}
	cancelFrame, _ := appendFrame(nil, 1, kindCancel, nil, 1<<10)
	unknownKind := outcome(1)
	unknownKind[12] = 9
	tests := []struct {
		name  string
		write []byte
		want  string // in the violation
	}{
		{"unknown call id", outcome(99), "a frame (outcome) for call 99, which the host never made"},
		{"call id 0", outcome(0), "for call 0, which the host never made"},
		{"frame only the host sends", cancelFrame, "a frame (cancel) for call 1, which only the host sends"},
		{"unknown kind", unknownKind, "a frame (kind 9) for call 1"},
		{"garbage", []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			violations := make(chan error, 2)
			c, mod := rawLane(t, LaneOptions{Violation: func(err error) { violations <- err }})
			fr := newFrameReader(mod, 1<<10)
			done := make(chan error, 1)
			go func() {
				_, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t"})
				done <- err
			}()
			readCall(t, fr)
			go io.Copy(io.Discard, mod)
			mod.Write(tt.write)
			if tt.want == "" {
				mod.Close() // whatever the reader made of it, the lane ends
			}
			err := <-done
			if k, ok := transportKind(err); !ok || k != modapi.TransportBroken {
				t.Errorf("pending call: got %v, want broken", err)
			}
			if tt.want == "" {
				return
			}
			select {
			case v := <-violations:
				if !strings.Contains(v.Error(), tt.want) {
					t.Errorf("got violation %q, want %q", v, tt.want)
				}
			default:
				t.Errorf("got no violation, want %q", tt.want)
			}
		})
	}
}

// TestLaneUndecodableOutcome checks that an outcome frame that does not
// decode is a violation too.
func TestLaneUndecodableOutcome(t *testing.T) {
	t.Parallel()
	violations := make(chan error, 2)
	c, mod := rawLane(t, LaneOptions{Violation: func(err error) { violations <- err }})
	fr := newFrameReader(mod, 1<<10)
	done := make(chan error, 1)
	go func() {
		_, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t"})
		done <- err
	}()
	id := readCall(t, fr)
	go io.Copy(io.Discard, mod)
	b, _ := appendFrame(nil, id, kindOutcome, nil, 1<<10)
	b = append(b, 0xff, 0xff)
	b[3] = 2 // the payload's length
	mod.Write(b)
	if k, _ := transportKind(<-done); k != modapi.TransportBroken {
		t.Errorf("got kind %v, want broken", k)
	}
	if v := <-violations; !strings.Contains(v.Error(), "an outcome frame does not decode") {
		t.Errorf("got violation %q, want the outcome that does not decode", v)
	}
}

// TestLaneTrace checks that a traced call's context reaches the mod and
// the mod's spans come back with the outcome.
func TestLaneTrace(t *testing.T) {
	t.Parallel()
	type key struct{}
	srv := &LaneServer{
		Impl: laneMod{call: func(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
			tp, _ := ctx.Value(key{}).(string)
			return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCompleted, Text: tp}}, nil
		}},
		Trace: func(ctx context.Context, tp, ts, bag string) context.Context {
			return context.WithValue(ctx, key{}, tp+"|"+ts+"|"+bag)
		},
		Spans: func(dst []byte) []byte { return append(dst, "spans"...) },
	}
	var got []string
	c := newLane(t, srv, LaneOptions{
		Trace: func(ctx context.Context) (string, string, string, bool) {
			if ctx.Value(key{}) == nil {
				return "", "", "", false
			}
			return "tp", "ts", "bag", true
		},
		Spans: func(batch string) { got = append(got, batch) },
	})
	resp, err := c.CallTool(context.WithValue(context.Background(), key{}, true), &modapi.CallRequest{Tool: "t"})
	if err != nil || resp.Outcome.Text != "tp|ts|bag" {
		t.Fatalf("traced: got %+v, %v; want the trace context in the handler", resp, err)
	}
	resp, err = c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t"})
	if err != nil || resp.Outcome.Text != "" {
		t.Fatalf("untraced: got %+v, %v; want no trace context", resp, err)
	}
	if !reflect.DeepEqual(got, []string{"spans", "spans"}) {
		t.Errorf("got spans %q, want both calls' batches", got)
	}
}

// FuzzLaneClient plays a mod that answers a call with arbitrary bytes.
// The call ends, and as the frames say: laneExpect reads them on its own
// and says how. A malformed frame (cut short, of a kind or call the host
// did not expect, over the limit, or a payload that does not decode)
// ends the call with an error that names the frame, never a result.
func FuzzLaneClient(f *testing.F) {
	const limit = 1 << 10
	ok, _ := appendFrame(nil, 1, kindOutcome, &pb.LaneOutcome{Outcome: &pb.Outcome{Status: pb.Status_STATUS_COMPLETED, Text: "hi"}}, limit)
	act, _ := appendFrame(nil, 1, kindActivity, &pb.ActivityBatch{Updates: []*pb.Activity{{Text: "a"}}}, limit)
	fail, _ := appendFrame(nil, 1, kindFailure, &pb.LaneFailure{Message: "no"}, limit)
	f.Add(ok)
	f.Add(append(act, ok...))
	f.Add(fail)
	f.Add(append(act, act[:9]...))
	f.Add(append(slices.Clone(act), 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1, byte(kindOutcome), 0xff, 0xff, 0xff))
	f.Add(append(slices.Clone(ok[:12]), 9))
	f.Add(append([]byte{0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 1, byte(kindOutcome)}, make([]byte, 0x1000)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		want := laneExpect(data, limit)
		a, b := net.Pipe()
		c := NewLaneClient(&GRPCClient{}, a, LaneOptions{MaxMessageBytes: limit})
		defer c.Close()
		go func() {
			fr := newFrameReader(b, limit)
			fr.next() // the call
			go io.Copy(io.Discard, b)
			b.Write(data)
			b.Close()
		}()
		resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", OnActivity: func(sdk.ActivityUpdate) {}})
		switch {
		case want.outcome != nil:
			if err != nil || resp == nil || !reflect.DeepEqual(resp.Outcome, OutcomeFromProto(want.outcome)) {
				t.Fatalf("got %+v, %v; want the outcome %v", resp, err, want.outcome)
			}
		case resp != nil || err == nil:
			t.Fatalf("got %+v, %v; want an error saying %q", resp, err, want.err)
		case !strings.Contains(err.Error(), want.err):
			t.Fatalf("got error %q, want one saying %q", err, want.err)
		}
		var te *modapi.TransportError
		switch {
		case want.noOutcome:
			if !errors.Is(err, modapi.ErrNoOutcome) {
				t.Fatalf("got error %#v, want modapi.ErrNoOutcome", err)
			}
		case err != nil && (!errors.As(err, &te) || te.Kind != want.kind):
			t.Fatalf("got error %#v, want a transport error of kind %v", err, want.kind)
		}
	})
}

// laneEnd is how a call ends for the frames a mod sent: with an outcome,
// with an outcome frame that holds none, or with a transport error of
// kind saying err.
type laneEnd struct {
	outcome   *pb.Outcome
	noOutcome bool
	kind      modapi.TransportKind
	err       string
}

// laneExpect reads data, the frames a mod sent for call 1, as the
// protocol's doc describes them, and says how the call ends.
func laneExpect(data []byte, limit int) laneEnd {
	broken := func(why string) laneEnd { return laneEnd{kind: modapi.TransportBroken, err: why} }
	for {
		if len(data) == 0 {
			return broken("the mod closed the call lane")
		}
		if len(data) < frameHeaderLen {
			return broken("unexpected EOF")
		}
		n := int(binary.BigEndian.Uint32(data[0:4]))
		id := binary.BigEndian.Uint64(data[4:12])
		kind := frameKind(data[12])
		data = data[frameHeaderLen:]
		if len(data) < n {
			return broken("unexpected EOF")
		}
		payload := data[:n]
		data = data[n:]
		switch {
		case kind != kindActivity && kind != kindOutcome && kind != kindFailure && kind != kindStepEnd:
			return broken(fmt.Sprintf("a frame (%s) for call %d, which only the host sends", kind, id))
		case id != 1:
			return broken(fmt.Sprintf("a frame (%s) for call %d, which the host never made", kind, id))
		case n > limit:
			return laneEnd{kind: modapi.TransportResponseTooLarge, err: fmt.Sprintf("%s frame is %d bytes, over the %d-byte message limit", kind, n, limit)}
		}
		switch kind {
		case kindStepEnd:
			// A step's answer, for a call that carried no step.
			return broken(fmt.Sprintf("a frame (%s) the host does not expect", kind))
		case kindActivity:
			if err := eachActivity(payload, nil); err != nil {
				return broken("an activity frame does not decode")
			}
		case kindOutcome:
			var o pb.LaneOutcome
			if err := proto.Unmarshal(payload, &o); err != nil {
				return broken("an outcome frame does not decode")
			}
			if o.GetStopped() != nil {
				return broken("an outcome frame stops a call before steps it did not carry")
			}
			if o.GetOutcome() == nil {
				return laneEnd{noOutcome: true, err: modapi.ErrNoOutcome.Error()}
			}
			return laneEnd{outcome: o.GetOutcome()}
		case kindFailure:
			var fl pb.LaneFailure
			if err := proto.Unmarshal(payload, &fl); err != nil {
				return broken("a failure frame does not decode")
			}
			kind := modapi.TransportOther
			switch fl.GetKind() {
			case pb.LaneFailureKind_LANE_FAILURE_KIND_REQUEST_TOO_LARGE:
				kind = modapi.TransportRequestTooLarge
			case pb.LaneFailureKind_LANE_FAILURE_KIND_RESPONSE_TOO_LARGE:
				kind = modapi.TransportResponseTooLarge
			}
			return laneEnd{kind: kind, err: fl.GetMessage()}
		}
	}
}

// TestLaneHandlersReused runs more calls at once than the server keeps
// idle handler goroutines for, then calls one at a time on the goroutines
// left waiting: every call gets its own outcome, and a cancel still
// reaches a call run by a reused goroutine.
func TestLaneHandlersReused(t *testing.T) {
	t.Parallel()
	const burst = 3 * maxIdleHandlers
	var started sync.WaitGroup
	started.Add(burst)
	release := make(chan struct{})
	waiting, waited := make(chan struct{}), make(chan struct{})
	call := func(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
		switch string(req.Input) {
		case `"burst"`:
			started.Done()
			<-release
		case `"wait"`:
			close(waiting)
			<-ctx.Done()
			defer close(waited)
			return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCancelled}}, nil
		}
		return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCompleted, Text: req.CallID}}, nil
	}
	srv := &LaneServer{Impl: laneMod{call: call}}
	c := newLane(t, srv, LaneOptions{})
	calls := func(n int, input string, prefix string) []error {
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				id := fmt.Sprintf("%s%d", prefix, i)
				resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", CallID: id, Input: json.RawMessage(input)})
				switch {
				case err != nil:
					errs[i] = err
				case resp.Outcome.Text != id:
					errs[i] = fmt.Errorf("call %s: got outcome %q", id, resp.Outcome.Text)
				}
			})
		}
		go func() {
			if input == `"burst"` {
				started.Wait()
				close(release)
			}
		}()
		wg.Wait()
		return errs
	}
	for _, err := range calls(burst, `"burst"`, "b") {
		if err != nil {
			t.Error(err)
		}
	}
	for i := range 2 * burst {
		for _, err := range calls(1, `"one"`, fmt.Sprintf("s%d-", i)) {
			if err != nil {
				t.Error(err)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, &modapi.CallRequest{Tool: "t", CallID: "w", Input: json.RawMessage(`"wait"`)})
		done <- err
	}()
	<-waiting
	cancel()
	if err := <-done; modapi.AsTransport(err) == nil {
		t.Errorf("cancelled call: got %v, want a transport error", err)
	}
	<-waited // the mod's handler saw the cancel
}

// trackLog is a LaneTracked writing what it is told to a channel.
type trackLog struct {
	id     string
	events chan<- string
}

func (l trackLog) Cancelled() { l.events <- "cancelled " + l.id }
func (l trackLog) End()       { l.events <- "end " + l.id }

// wantEvents fails t unless events tells what, in order.
func wantEvents(t *testing.T, events <-chan string, what ...string) {
	t.Helper()
	for _, w := range what {
		select {
		case got := <-events:
			if got != w {
				t.Fatalf("got %q, want %q", got, w)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("got nothing, want %q", w)
		}
	}
}

// TestLaneTrack checks that Track's handler is told of its call's
// cancellation by the host, including one that came before Track was
// called, and by the lane closing, and of its end; a call that is not
// cancelled hears of its end alone.
func TestLaneTrack(t *testing.T) {
	t.Parallel()
	events := make(chan string, 16)
	inTrack := make(chan struct{})
	var srv *LaneServer
	srv = &LaneServer{Impl: laneMod{call: func(ctx context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
		if string(req.Input) != "wait" {
			return echo(ctx, req)
		}
		<-ctx.Done()
		return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCancelled}}, nil
	}}}
	srv.Track = func(method string, req any) LaneTracked {
		if method != pb.Mod_CallTool_FullMethodName {
			t.Errorf("got Track for %s, want CallTool", method)
		}
		id := req.(*pb.CallToolRequest).GetCallId()
		if id == "early" {
			// Tracked only once the lane has taken the host's cancel.
			inTrack <- struct{}{}
			for !srv.anyCancelled() {
				time.Sleep(time.Millisecond)
			}
		}
		return trackLog{id, events}
	}
	c := newLane(t, srv, LaneOptions{})
	want := func(what ...string) { t.Helper(); wantEvents(t, events, what...) }
	if resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", CallID: "n", Input: json.RawMessage("1")}); err != nil || resp.Outcome.Text != "1" {
		t.Fatalf("got %v, %v; want outcome 1", resp, err)
	}
	want("end n")
	for srv.anyRunning() { // n ended, then forgotten
		time.Sleep(time.Millisecond)
	}

	for _, id := range []string{"w", "early"} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := c.CallTool(ctx, &modapi.CallRequest{Tool: "t", CallID: id, Input: json.RawMessage("wait")})
			done <- err
		}()
		if id == "early" {
			<-inTrack
		} else {
			for !srv.anyRunning() {
				time.Sleep(time.Millisecond)
			}
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: got %v, want context.Canceled", id, err)
		}
		want("cancelled "+id, "end "+id)
		for srv.anyRunning() { // ended, then forgotten
			time.Sleep(time.Millisecond)
		}
	}

	done := make(chan error, 1)
	go func() {
		_, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", CallID: "c", Input: json.RawMessage("wait")})
		done <- err
	}()
	for !srv.anyRunning() {
		time.Sleep(time.Millisecond)
	}
	srv.Close()
	want("cancelled c")
	for e := range events { // told once more as Serve's end closes the lane again
		if e == "end c" {
			break
		}
		if e != "cancelled c" {
			t.Fatalf("got %q, want the end of c", e)
		}
	}
	if err := <-done; err == nil {
		t.Fatal("got no error from a call whose lane closed")
	}
}

// anyRunning reports whether a call is running on the lane.
func (s *LaneServer) anyRunning() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.running) > 0
}

// anyCancelled reports whether a call running on the lane was cancelled.
func (s *LaneServer) anyCancelled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.running {
		if r.cancelled {
			return true
		}
	}
	return false
}

// TestLaneOutcomePooled checks that what a call's outcome decodes to, its
// spans included, stays as it came once the outcome's payload went back
// to the pool and later calls' outcomes were read into it.
func TestLaneOutcomePooled(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	srv := &LaneServer{
		Impl: laneMod{call: func(_ context.Context, req *modapi.CallRequest) (*modapi.CallResponse, error) {
			in := string(req.Input)
			return &modapi.CallResponse{Outcome: modapi.Outcome{Status: modapi.StatusCompleted, Text: in, Result: json.RawMessage(`"` + in + `"`),
				Outputs: []sdk.Output{{MimeType: "text/plain", Content: in, URI: "file:///" + in}}}}, nil
		}},
		Spans: func(dst []byte) []byte { return fmt.Appendf(dst, "spans %d", n.Add(1)) },
	}
	var spans []string
	c := newLane(t, srv, LaneOptions{Spans: func(batch string) { spans = append(spans, batch) }})
	var resps []*modapi.CallResponse
	for i := range 20 {
		resp, err := c.CallTool(context.Background(), &modapi.CallRequest{Tool: "t", Input: json.RawMessage(fmt.Sprint(1000 + i))})
		if err != nil {
			t.Fatal(err)
		}
		resps = append(resps, resp)
	}
	for i, resp := range resps {
		in := fmt.Sprint(1000 + i)
		o := resp.Outcome
		if o.Text != in || string(o.Result) != `"`+in+`"` || len(o.Outputs) != 1 || o.Outputs[0].Content != in || o.Outputs[0].URI != "file:///"+in {
			t.Errorf("call %d: got outcome %+v, want %s throughout", i, o, in)
		}
		if want := fmt.Sprint("spans ", i+1); spans[i] != want {
			t.Errorf("call %d: got spans %q, want %q", i, spans[i], want)
		}
	}
}

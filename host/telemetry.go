package host

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/modkit/modkit/internal/callflow"
	"github.com/modkit/modkit/internal/modapi"
	"github.com/modkit/modkit/internal/telemetry"
	"github.com/modkit/modkit/sdk"
)

// Call runs one tool and returns its one outcome. Invalid input, a hook's
// refusal, a handler's error, a crashed mod and an oversize result are
// failed results, not errors. Call returns an error only when no call
// happened: ErrUnknownTool, ErrNotAllowed or ErrClosed (wrapped; test with
// errors.Is).
//
// When the process traces (internal/telemetry), the call is a span, child
// of ctx's, with a span for each of its steps; the mod's own spans nest
// under it. It is counted in the host's metrics when they are kept.
func (h *Host) Call(ctx context.Context, req *CallRequest) (*CallResult, error) {
	if !telemetry.Tracing() && !telemetry.Metering() {
		return h.call(ctx, req)
	}
	if _, ok := h.tools[req.Tool]; !ok {
		return h.call(ctx, req) // no call, and no tool name from outside in a metric
	}
	ctx, span := telemetry.StartCall(ctx, req.Tool)
	telemetry.CallStarted(req.Tool)
	res, err := h.call(ctx, req)
	outcome := "error"
	var callID, label, failure string
	if res != nil {
		outcome, callID, label = string(res.Status), res.CallID, res.Label
		if res.Status == StatusFailed {
			failure = res.Error
		}
	}
	span.EndCall(req.Tool, callID, label, failure)
	telemetry.CallEnded(req.Tool, outcome)
	return res, err
}

// applyActivity applies u to the call's activity by the activity rules,
// and emits a log line it applies as an OpenTelemetry log record too, in
// ctx's trace (the call's).
func (c *hostCall) applyActivity(ctx context.Context, u sdk.ActivityUpdate) (sdk.ActivityUpdate, bool) {
	u, ok := c.act.Apply(&c.res.Activity, u)
	if ok && u.Kind == sdk.ActivityLog {
		telemetry.ActivityLog(ctx, c.t.man.Name, c.res.CallID, len(c.res.Activity.Log), u.Text)
	}
	return u, ok
}

// MakeRoom makes room in the call's log for logs entries, which arrived
// together and reach applyActivity next.
func (c *hostCall) MakeRoom(logs int) { modapi.Reserve(&c.res.Activity, logs) }

// modTelemetry is what a mod's spans and metrics need to remember: how many
// processes it started, and its latest build, which ran outside any call's
// context.
type modTelemetry struct {
	mu         sync.Mutex
	starts     int
	buildStart time.Time
	buildEnd   time.Time
	buildOK    bool
}

// buildEnded records a build of the mod's binary.
func (t *modTelemetry) buildEnded(mod string, start time.Time, ok bool) {
	end := time.Now()
	telemetry.BuildDone(mod, end.Sub(start), ok)
	t.mu.Lock()
	t.buildStart, t.buildEnd, t.buildOK = start, end, ok
	t.mu.Unlock()
}

// started counts a process started.
func (t *modTelemetry) started(mod string) {
	t.mu.Lock()
	t.starts++
	restart := t.starts > 1
	t.mu.Unlock()
	telemetry.ModStarted(mod, restart)
}

// startSpan starts the span of a call's wait for its mod's process, which
// the mod had none running for; end ends it, with a span for the build
// the wait included.
func (h *Host) startSpan(ctx context.Context, m *mod) (end func(failed bool)) {
	if !telemetry.Tracing() {
		return func(bool) {}
	}
	began := time.Now()
	ctx, span := telemetry.StartStep(ctx, telemetry.StepModStart, m.man.ID)
	return func(failed bool) {
		m.tele.mu.Lock()
		bs, be, ok := m.tele.buildStart, m.tele.buildEnd, m.tele.buildOK
		m.tele.mu.Unlock()
		if !bs.Before(began) {
			telemetry.PastStep(ctx, telemetry.StepBuild, m.man.ID, bs, be, !ok)
		}
		if failed {
			span.Fail("mod_unavailable", "the mod did not start")
		}
		span.End()
	}
}

// approvalEnded ends the approval step's span and counts its outcome.
func approvalEnded(span telemetry.Span, tool string, e callflow.StepEnd) {
	outcome := "approved"
	switch {
	case e.Ending == nil && e.Reason == "":
		span.Set("modkit.approval", "not needed")
		span.End()
		return
	case e.Ending == nil:
	case e.Ending.Status == modapi.StatusDenied:
		outcome = "denied"
	case e.Ending.Status == callflow.StatusAsking:
		outcome = "asked_later"
	case e.Ending.Status == modapi.StatusCancelled:
		outcome = "cancelled"
	default:
		outcome = "unanswered"
	}
	span.Set("modkit.approval", outcome)
	if outcome != "approved" && outcome != "asked_later" {
		span.Fail("approval_"+outcome, "the call was not approved")
	}
	span.End()
	telemetry.ApprovalDone(tool, outcome)
}

// questionsEnded ends the span of a round of questions and counts each:
// end is the call's ending when the questions ended it (ended).
func questionsEnded(span telemetry.Span, tool string, asked []modapi.Question, end callflow.Ending, ended bool) {
	outcome := "answered"
	if ended {
		switch end.Status {
		case callflow.StatusAsking:
			outcome = "asked_later"
		case modapi.StatusCancelled:
			outcome = "cancelled"
		default:
			outcome = "unanswered"
			span.Fail("question_unanswered", end.Error)
		}
	}
	span.Set("modkit.questions", outcome)
	span.End()
	if telemetry.Metering() {
		for _, q := range asked {
			telemetry.QuestionDone(tool, string(q.Kind), outcome)
		}
	}
}

// questionKinds names the kinds of a round of questions, for its span.
func questionKinds(qs []modapi.Question) string {
	if !telemetry.Tracing() {
		return ""
	}
	var b strings.Builder
	for i, q := range qs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(q.Kind))
	}
	return b.String()
}

package telemetry

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// instruments are the host's metrics; names follow OpenTelemetry's, and
// Prometheus reads them with unit and _total suffixes.
type instruments struct {
	operation     metric.Float64Histogram // mcp.server.operation.duration
	calls         metric.Int64Counter
	inFlight      metric.Int64UpDownCounter
	modStarts     metric.Int64Counter
	modCrashes    metric.Int64Counter
	modRestarts   metric.Int64Counter
	build         metric.Float64Histogram
	inputRefusals metric.Int64Counter
	approvals     metric.Int64Counter
	questions     metric.Int64Counter
	taskStore     metric.Float64Histogram // modkit.taskstore.operation.duration
}

var ins instruments

// durationBuckets are the MCP conventions' advice for operation durations.
var durationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

func newInstruments(mp metric.MeterProvider) error {
	m := mp.Meter(tracerName)
	var errs [11]error
	ins.operation, errs[0] = m.Float64Histogram("mcp.server.operation.duration", metric.WithUnit("s"),
		metric.WithDescription("MCP request duration as observed on the receiver from the time it was received until the result or ack is sent."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	ins.calls, errs[1] = m.Int64Counter("modkit.calls", metric.WithUnit("{call}"), metric.WithDescription("Tool calls the host ran, by tool and outcome."))
	ins.inFlight, errs[2] = m.Int64UpDownCounter("modkit.calls.in_flight", metric.WithUnit("{call}"), metric.WithDescription("Tool calls running now, by tool."))
	ins.modStarts, errs[3] = m.Int64Counter("modkit.mod.starts", metric.WithUnit("{start}"), metric.WithDescription("Mod processes started, by mod."))
	ins.modCrashes, errs[4] = m.Int64Counter("modkit.mod.crashes", metric.WithUnit("{crash}"), metric.WithDescription("Mod processes that exited without the host stopping them, by mod."))
	ins.modRestarts, errs[5] = m.Int64Counter("modkit.mod.restarts", metric.WithUnit("{restart}"), metric.WithDescription("Mod processes started after an earlier one of the same mod ended, by mod."))
	ins.build, errs[6] = m.Float64Histogram("modkit.mod.build.duration", metric.WithUnit("s"), metric.WithDescription("Time to build a mod's binary, by mod and outcome."),
		metric.WithExplicitBucketBoundaries(0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300))
	ins.inputRefusals, errs[7] = m.Int64Counter("modkit.input.refusals", metric.WithUnit("{call}"), metric.WithDescription("Tool calls refused before their handler ran, by tool and reason."))
	ins.approvals, errs[8] = m.Int64Counter("modkit.approvals", metric.WithUnit("{approval}"), metric.WithDescription("Approval questions, by tool and outcome."))
	ins.questions, errs[9] = m.Int64Counter("modkit.questions", metric.WithUnit("{question}"), metric.WithDescription("Questions handlers asked, by tool, kind and outcome."))
	ins.taskStore, errs[10] = m.Float64Histogram("modkit.taskstore.operation.duration", metric.WithUnit("s"),
		metric.WithDescription("Task store operations' duration, by store, operation and outcome."),
		metric.WithExplicitBucketBoundaries(0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5))
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("telemetry: %w", err)
		}
	}
	return nil
}

// Metering reports whether metrics are kept.
func Metering() bool { return meteringOn.Load() }

func attrs(kvs ...attribute.KeyValue) metric.MeasurementOption {
	return metric.WithAttributeSet(attribute.NewSet(kvs...))
}

// RecordOperation records one MCP request's duration; tool is empty but
// for tools/call, errType empty but for a failure.
func RecordOperation(method, tool, errType string, d time.Duration) {
	if !meteringOn.Load() {
		return
	}
	ins.operation.Record(context.Background(), d.Seconds(), operationSet(method, tool, errType)...)
}

// opKey names one attribute set of the operation durations.
type opKey struct{ method, tool, errType string }

// maxOpSets bounds opSets: what a request names is the client's to
// choose.
const maxOpSets = 1024

// opSets are the attribute sets of the operation durations recorded so
// far, made once each (at most maxOpSets of them), as options of Record:
// passed as they are, they cost no allocation.
var (
	opSets  sync.Map // opKey -> []metric.RecordOption
	nOpSets atomic.Int32
)

func operationSet(method, tool, errType string) []metric.RecordOption {
	key := opKey{method, tool, errType}
	if o, ok := opSets.Load(key); ok {
		return o.([]metric.RecordOption)
	}
	kvs := []attribute.KeyValue{attribute.String("mcp.method.name", method)}
	if tool != "" {
		kvs = append(kvs, attribute.String("gen_ai.tool.name", tool))
	}
	if errType != "" {
		kvs = append(kvs, attribute.String("error.type", errType))
	}
	o := []metric.RecordOption{attrs(kvs...)}
	if nOpSets.Load() < maxOpSets {
		if _, loaded := opSets.LoadOrStore(key, o); !loaded {
			nOpSets.Add(1)
		}
	}
	return o
}

// CallStarted counts a tool call in flight until CallEnded. tool is one
// of the host's tools: its attribute sets are made once.
func CallStarted(tool string) {
	if meteringOn.Load() {
		ins.inFlight.Add(context.Background(), 1, toolSets(tool).tool...)
	}
}

// CallEnded ends a call CallStarted counted, with its outcome.
func CallEnded(tool, outcome string) {
	if !meteringOn.Load() {
		return
	}
	ts := toolSets(tool)
	ins.inFlight.Add(context.Background(), -1, ts.tool...)
	ins.calls.Add(context.Background(), 1, ts.outcome(outcome)...)
}

// toolAttrs are the attribute sets of one tool's call metrics, as the
// options of Add: passed as they are, they cost no allocation.
type toolAttrs struct {
	name     string
	tool     []metric.AddOption // tool
	outcomes sync.Map           // outcome -> tool and outcome
}

// toolAttrSets are the toolAttrs of the tools called so far, a set as
// small as the host's tools.
var toolAttrSets sync.Map

func toolSets(tool string) *toolAttrs {
	if ts, ok := toolAttrSets.Load(tool); ok {
		return ts.(*toolAttrs)
	}
	ts, _ := toolAttrSets.LoadOrStore(tool, &toolAttrs{name: tool, tool: []metric.AddOption{attrs(attribute.String("tool", tool))}})
	return ts.(*toolAttrs)
}

func (ts *toolAttrs) outcome(outcome string) []metric.AddOption {
	if o, ok := ts.outcomes.Load(outcome); ok {
		return o.([]metric.AddOption)
	}
	o, _ := ts.outcomes.LoadOrStore(outcome, []metric.AddOption{attrs(attribute.String("tool", ts.name), attribute.String("outcome", outcome))})
	return o.([]metric.AddOption)
}

// ModStarted counts a mod process started; restart says an earlier one
// of the mod ended.
func ModStarted(mod string, restart bool) {
	if !meteringOn.Load() {
		return
	}
	ins.modStarts.Add(context.Background(), 1, attrs(attribute.String("mod", mod)))
	if restart {
		ins.modRestarts.Add(context.Background(), 1, attrs(attribute.String("mod", mod)))
	}
}

// ModCrashed counts a mod process that exited unasked.
func ModCrashed(mod string) {
	if meteringOn.Load() {
		ins.modCrashes.Add(context.Background(), 1, attrs(attribute.String("mod", mod)))
	}
}

// BuildDone records a build of a mod's binary.
func BuildDone(mod string, d time.Duration, ok bool) {
	if !meteringOn.Load() {
		return
	}
	outcome := "ok"
	if !ok {
		outcome = "failed"
	}
	ins.build.Record(context.Background(), d.Seconds(), attrs(attribute.String("mod", mod), attribute.String("outcome", outcome)))
}

// The reasons a call is refused before its handler runs.
const (
	RefusedTooLarge = "too_large"
	RefusedInvalid  = "invalid"
	RefusedHook     = "hook"
)

// InputRefused counts a call refused for reason.
func InputRefused(tool, reason string) {
	if meteringOn.Load() {
		ins.inputRefusals.Add(context.Background(), 1, attrs(attribute.String("tool", tool), attribute.String("reason", reason)))
	}
}

// ApprovalDone counts an approval question's outcome: "approved",
// "denied" or "unanswered".
func ApprovalDone(tool, outcome string) {
	if meteringOn.Load() {
		ins.approvals.Add(context.Background(), 1, attrs(attribute.String("tool", tool), attribute.String("outcome", outcome)))
	}
}

// QuestionDone counts a question a handler asked: its kind and outcome
// ("answered", "declined", "unanswered").
func QuestionDone(tool, kind, outcome string) {
	if meteringOn.Load() {
		ins.questions.Add(context.Background(), 1, attrs(attribute.String("tool", tool), attribute.String("kind", kind), attribute.String("outcome", outcome)))
	}
}

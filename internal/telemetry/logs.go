package telemetry

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdoutlog"
	otellog "go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/log/global"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"
)

// activityLogger emits the calls' activity logs; nil while logs are off.
var activityLogger atomic.Pointer[otellog.Logger]

// Logging reports whether activity logs are emitted as OpenTelemetry logs.
func Logging() bool { return activityLogger.Load() != nil }

// ActivityLog emits one line of the activity log of a call of tool as an
// OpenTelemetry log record: its text is the body, with the call's id and
// the line's number from 1; ctx's span (the call's) correlates it with
// the trace. It does nothing while logs are off.
func ActivityLog(ctx context.Context, tool, callID string, seq int, text string) {
	l := activityLogger.Load()
	if l == nil {
		return
	}
	var r otellog.Record
	r.SetTimestamp(time.Now())
	r.SetSeverity(otellog.SeverityInfo)
	r.SetSeverityText("INFO")
	r.SetEventName(ActivityLogEvent)
	r.SetBody(attribute.StringValue(text))
	r.AddAttributes(
		attribute.String("gen_ai.tool.name", tool),
		attribute.String("modkit.call_id", callID),
		attribute.Int("modkit.activity.seq", seq),
	)
	(*l).Emit(ctx, r)
}

// ActivityLogEvent is the event name of an activity log record.
const ActivityLogEvent = "modkit.activity.log"

// setupLogs turns on the log exporter OTEL_LOGS_EXPORTER names, or
// o.LogExporter, as the global logger provider; it returns nil when
// neither asks for logs.
func setupLogs(ctx context.Context, o *Options, res *resource.Resource) (*sdklog.LoggerProvider, error) {
	var proc sdklog.Processor
	if o.LogExporter != nil {
		proc = sdklog.NewSimpleProcessor(o.LogExporter)
	} else {
		exp, err := logExporter(ctx, o)
		if exp == nil || err != nil {
			return nil, err
		}
		proc = sdklog.NewBatchProcessor(exp)
	}
	lp := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(proc))
	l := lp.Logger(tracerName)
	activityLogger.Store(&l)
	global.SetLoggerProvider(lp)
	return lp, nil
}

// logExporter returns the exporter OTEL_LOGS_EXPORTER names, or nil for
// none.
func logExporter(ctx context.Context, o *Options) (sdklog.Exporter, error) {
	switch name := strings.TrimSpace(o.Getenv("OTEL_LOGS_EXPORTER")); name {
	case "", "none":
		return nil, nil
	case "console":
		return stdoutlog.New(stdoutlog.WithWriter(o.Console))
	case "otlp":
		if otlpProtocol(o.Getenv, "LOGS") == "grpc" {
			return otlploggrpc.New(ctx)
		}
		return otlploghttp.New(ctx)
	default:
		return nil, fmt.Errorf("telemetry: OTEL_LOGS_EXPORTER=%q: want otlp, console or none", name)
	}
}

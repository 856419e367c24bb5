package telemetry

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// TestOTLPMetrics: with OTEL_METRICS_EXPORTER=otlp the metrics reach a
// real OTLP receiver on loopback, over HTTP/protobuf by default and over
// gRPC when OTEL_EXPORTER_OTLP_PROTOCOL says so, with no /metrics handler
// asked for.
func TestOTLPMetrics(t *testing.T) {
	for _, protocol := range []string{"http/protobuf", "grpc"} {
		t.Run(protocol, func(t *testing.T) {
			got := make(chan *colmetrics.ExportMetricsServiceRequest, 16)
			endpoint := otlpHTTPReceiver(t, got)
			if protocol == "grpc" {
				endpoint = otlpGRPCReceiver(t, got)
			}
			t.Setenv("OTEL_METRICS_EXPORTER", "otlp")
			t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", protocol)
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
			t.Setenv("OTEL_EXPORTER_OTLP_INSECURE", "true")
			t.Setenv("OTEL_SERVICE_NAME", "otlp-test")

			ctx := context.Background()
			tel, err := Setup(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !Metering() || tel.MetricsHandler() != nil {
				t.Fatalf("metering %v, handler %v: want metrics kept and no /metrics handler", Metering(), tel.MetricsHandler())
			}
			CallStarted("echo")
			CallEnded("echo", "completed")
			RecordOperation("tools/call", "echo", "", 3*time.Millisecond)
			if err := tel.Shutdown(ctx); err != nil { // exports what is pending
				t.Fatal(err)
			}
			var req *colmetrics.ExportMetricsServiceRequest
			select {
			case req = <-got:
			case <-time.After(time.Minute):
				t.Fatal("the receiver got no export")
			}
			if len(req.ResourceMetrics) != 1 {
				t.Fatalf("got %d resources, want 1", len(req.ResourceMetrics))
			}
			rm := req.ResourceMetrics[0]
			service := ""
			for _, kv := range rm.Resource.GetAttributes() {
				if kv.Key == "service.name" {
					service = kv.Value.GetStringValue()
				}
			}
			if service != "otlp-test" {
				t.Errorf("service.name %q, want otlp-test", service)
			}
			metrics := map[string]*metricspb.Metric{}
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					metrics[m.Name] = m
				}
			}
			calls := metrics["modkit.calls"]
			if calls == nil || len(calls.GetSum().GetDataPoints()) != 1 || calls.GetSum().DataPoints[0].GetAsInt() != 1 {
				t.Errorf("modkit.calls: got %v, want one point of 1", calls)
			}
			op := metrics["mcp.server.operation.duration"]
			if op == nil || len(op.GetHistogram().GetDataPoints()) != 1 || op.GetHistogram().DataPoints[0].GetCount() != 1 {
				t.Errorf("mcp.server.operation.duration: got %v, want one observation", op)
			}
		})
	}
}

// otlpHTTPReceiver serves OTLP/HTTP metrics exports on loopback, passing
// each request it decodes to got, and returns its endpoint.
func otlpHTTPReceiver(t *testing.T, got chan<- *colmetrics.ExportMetricsServiceRequest) string {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/metrics", func(w http.ResponseWriter, r *http.Request) {
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			body = zr
		}
		data, err := io.ReadAll(body)
		var req colmetrics.ExportMetricsServiceRequest
		if err == nil {
			err = proto.Unmarshal(data, &req)
		}
		if err != nil || r.Header.Get("Content-Type") != "application/x-protobuf" {
			http.Error(w, "want a protobuf ExportMetricsServiceRequest", http.StatusBadRequest)
			return
		}
		got <- &req
		resp, _ := proto.Marshal(&colmetrics.ExportMetricsServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		io.Copy(w, bytes.NewReader(resp))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

type metricsReceiver struct {
	colmetrics.UnimplementedMetricsServiceServer
	got chan<- *colmetrics.ExportMetricsServiceRequest
}

func (m metricsReceiver) Export(_ context.Context, req *colmetrics.ExportMetricsServiceRequest) (*colmetrics.ExportMetricsServiceResponse, error) {
	m.got <- req
	return &colmetrics.ExportMetricsServiceResponse{}, nil
}

// otlpGRPCReceiver is otlpHTTPReceiver over OTLP/gRPC.
func otlpGRPCReceiver(t *testing.T, got chan<- *colmetrics.ExportMetricsServiceRequest) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	colmetrics.RegisterMetricsServiceServer(srv, metricsReceiver{got: got})
	go srv.Serve(ln)
	t.Cleanup(srv.Stop)
	return "http://" + ln.Addr().String()
}

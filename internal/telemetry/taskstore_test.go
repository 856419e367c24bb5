package telemetry

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/taskstore"
)

// TestTimedStore: each task store operation is timed by operation and
// outcome, and the wrapped store's answers pass through unchanged.
func TestTimedStore(t *testing.T) {
	ctx := context.Background()
	tel, err := Setup(ctx, &Options{Metrics: true, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(ctx)
	s := TimedStore(taskstore.NewMemory(), "memory")
	defer s.Close()
	now := time.Now()
	if err := s.Create(ctx, &taskstore.Task{ID: "t1", Status: taskstore.Working, CreatedAt: now, UpdatedAt: now, TTL: time.Minute}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "missing"); !errors.Is(err, taskstore.ErrNotFound) {
		t.Fatalf("Get of a missing task: %v, want ErrNotFound", err)
	}
	if _, err := s.Update(ctx, "t1", func(*taskstore.Task) error { return nil }); err != nil {
		t.Fatal(err)
	}

	rec := httptest.NewRecorder()
	tel.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`modkit_taskstore_operation_duration_seconds_count{operation="create",outcome="ok",store="memory"} 1`,
		`modkit_taskstore_operation_duration_seconds_count{operation="get",outcome="ok",store="memory"} 1`,
		`modkit_taskstore_operation_duration_seconds_count{operation="get",outcome="not_found",store="memory"} 1`,
		`modkit_taskstore_operation_duration_seconds_count{operation="update",outcome="ok",store="memory"} 1`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s:\n%s", want, body)
		}
	}
}

package telemetry

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/modkit/modkit/internal/taskstore"
)

// TimedStore returns s timing each of its operations in the metric
// modkit.taskstore.operation.duration, by store kind ("memory", "redis"),
// operation and outcome ("ok", "not_found", "ended", "error"), when
// metrics are kept; otherwise it costs one flag check per operation.
func TimedStore(s taskstore.Store, kind string) taskstore.Store {
	return &timedStore{Store: s, kind: attribute.String("store", kind)}
}

type timedStore struct {
	taskstore.Store
	kind attribute.KeyValue
}

// timed records one operation begun at start that returned err.
func (s *timedStore) timed(op string, start time.Time, err error) {
	outcome := "ok"
	switch {
	case err == nil:
	case errors.Is(err, taskstore.ErrNotFound):
		outcome = "not_found"
	case errors.Is(err, taskstore.ErrEnded):
		outcome = "ended"
	default:
		outcome = "error"
	}
	ins.taskStore.Record(context.Background(), time.Since(start).Seconds(),
		attrs(s.kind, attribute.String("operation", op), attribute.String("outcome", outcome)))
}

func (s *timedStore) Create(ctx context.Context, t *taskstore.Task) error {
	if !meteringOn.Load() {
		return s.Store.Create(ctx, t)
	}
	start := time.Now()
	err := s.Store.Create(ctx, t)
	s.timed("create", start, err)
	return err
}

func (s *timedStore) Get(ctx context.Context, id string) (*taskstore.Task, error) {
	if !meteringOn.Load() {
		return s.Store.Get(ctx, id)
	}
	start := time.Now()
	t, err := s.Store.Get(ctx, id)
	s.timed("get", start, err)
	return t, err
}

func (s *timedStore) Update(ctx context.Context, id string, change func(*taskstore.Task) error) (*taskstore.Task, error) {
	if !meteringOn.Load() {
		return s.Store.Update(ctx, id, change)
	}
	start := time.Now()
	t, err := s.Store.Update(ctx, id, change)
	s.timed("update", start, err)
	return t, err
}

func (s *timedStore) List(ctx context.Context, creator, cursor string, limit int) (taskstore.Page, error) {
	if !meteringOn.Load() {
		return s.Store.List(ctx, creator, cursor, limit)
	}
	start := time.Now()
	p, err := s.Store.List(ctx, creator, cursor, limit)
	s.timed("list", start, err)
	return p, err
}

func (s *timedStore) Notify(ctx context.Context, id string) error {
	if !meteringOn.Load() {
		return s.Store.Notify(ctx, id)
	}
	start := time.Now()
	err := s.Store.Notify(ctx, id)
	s.timed("notify", start, err)
	return err
}

func (s *timedStore) Ping(ctx context.Context) error {
	if !meteringOn.Load() {
		return s.Store.Ping(ctx)
	}
	start := time.Now()
	err := s.Store.Ping(ctx)
	s.timed("ping", start, err)
	return err
}

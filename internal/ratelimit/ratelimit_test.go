package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/ratelimit"
	"github.com/modkit/modkit/internal/testserver"
)

// clock is a clock the test moves.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestMemoryBucket(t *testing.T) {
	c := &clock{t: time.Unix(1000, 0)}
	l := ratelimit.NewMemory(3, c.now)
	ctx := context.Background()
	// A burst of 3, then refused, told to wait a third of a second.
	for i := range 3 {
		if ok, _ := l.Allow(ctx, "alice"); !ok {
			t.Fatalf("request %d of the burst: refused, want allowed", i+1)
		}
	}
	ok, retry := l.Allow(ctx, "alice")
	if ok || retry <= 300*time.Millisecond || retry > 334*time.Millisecond {
		t.Fatalf("request 4: got %v, retry %v; want refused, retry about 333ms", ok, retry)
	}
	if got := ratelimit.RetryAfter(retry); got != "1" {
		t.Errorf("Retry-After: got %s, want 1", got)
	}
	// Another key has its own bucket.
	if ok, _ := l.Allow(ctx, "bob"); !ok {
		t.Fatal("bob: refused, want allowed")
	}
	// After the wait it was told, one more.
	c.t = c.t.Add(retry)
	if ok, _ := l.Allow(ctx, "alice"); !ok {
		t.Fatalf("after %v: refused, want allowed", retry)
	}
	if ok, _ := l.Allow(ctx, "alice"); ok {
		t.Fatal("a second one: allowed, want refused")
	}
	// After a long pause the bucket holds no more than the burst.
	c.t = c.t.Add(time.Hour)
	for i := range 3 {
		if ok, _ := l.Allow(ctx, "alice"); !ok {
			t.Fatalf("request %d after a pause: refused, want allowed", i+1)
		}
	}
	if ok, _ := l.Allow(ctx, "alice"); ok {
		t.Fatal("request 4 after a pause: allowed, want refused")
	}
}

func TestParseRate(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"10/s", 10, true}, {"5", 5, true}, {"0/s", 0, false}, {"-1/s", 0, false}, {"ten/s", 0, false}, {"10/m", 0, false}, {"", 0, false},
	} {
		got, err := ratelimit.ParseRate(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseRate(%q): got %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestRedisSharedBucket(t *testing.T) {
	r := testserver.StartRedis(t)
	// Two replicas share one bucket: a burst of 5 in all.
	a, err := ratelimit.NewRedis(r.URL(), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := ratelimit.NewRedis(r.URL(), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	allowed := 0
	var retry time.Duration
	start := time.Now()
	for i := range 10 {
		l := a
		if i%2 == 1 {
			l = b
		}
		ok, wait := l.Allow(ctx, "alice")
		if ok {
			allowed++
		} else {
			retry = wait
		}
	}
	// The bucket refills 5 a second while the requests run.
	refilled := int(time.Since(start).Seconds()*5) + 1
	if allowed < 5 || allowed > 5+refilled {
		t.Errorf("allowed %d of 10 across two replicas, want the shared burst of 5 (and at most %d refilled)", allowed, refilled)
	}
	if retry <= 0 || retry > 200*time.Millisecond {
		t.Errorf("retry: got %v, want up to 200ms", retry)
	}
	if ok, _ := a.Allow(ctx, "bob"); !ok {
		t.Error("bob: refused, want his own bucket")
	}
	// Redis gone: each replica limits on its own, in memory.
	r.Stop()
	ok := 0
	a.Allow(ctx, "dave") // finds Redis gone
	start = time.Now()
	for range 8 {
		if allowedNow, _ := a.Allow(ctx, "carol"); allowedNow {
			ok++
		}
	}
	refilled = int(time.Since(start).Seconds()*5) + 1
	if ok < 5 || ok > 5+refilled {
		t.Errorf("without Redis: allowed %d of 8, want the replica's own burst of 5 (and at most %d refilled)", ok, refilled)
	}
}

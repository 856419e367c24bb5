package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a Limiter in Redis, shared by replicas. Create it with
// [NewRedis].
type Redis struct {
	rdb      *redis.Client
	rate     int
	fallback *Memory
	logger   *slog.Logger
	down     atomic.Bool  // Redis failed last time: said once, until it answers
	retryAt  atomic.Int64 // while Redis is down, when to ask it again (unix ns)
}

// Timeouts of a Redis that does not answer: how long a request waits for
// it, and how long the replica limits on its own before asking again.
const (
	redisWait  = 500 * time.Millisecond
	redisPause = 5 * time.Second
)

// redisKeyPrefix prefixes each bucket's key.
const redisKeyPrefix = "modkit:ratelimit:"

// takeToken refills the bucket KEYS[1] at ARGV[1] tokens a second up to
// ARGV[1] tokens, by Redis's clock, and takes one. It returns 1 and 0
// when there was one, else 0 and the microseconds until there is. The
// bucket expires once it would be full again.
var takeToken = redis.NewScript(`
local rate = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or rate
local at = tonumber(b[2]) or now
if now > at then
  tokens = math.min(rate, tokens + (now - at) * rate / 1000000)
  at = now
end
local ok, wait = 0, 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
else
  wait = math.ceil((1 - tokens) * 1000000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(at))
redis.call('PEXPIRE', KEYS[1], 1000 + math.ceil((rate - tokens) * 1000 / rate))
return {ok, wait}
`)

// NewRedis returns a limiter of rate requests a second per key, with a
// burst of rate, in the Redis at url (redis://HOST:PORT/DB). It does not
// wait for Redis. Failures go to logger (nil: none).
func NewRedis(url string, rate int, logger *slog.Logger) (*Redis, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("rate limit store %q: %w", url, err)
	}
	opts.DialTimeout = 2 * time.Second
	opts.ReadTimeout = time.Second
	opts.WriteTimeout = time.Second
	opts.MaxRetries = 1
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Redis{rdb: redis.NewClient(opts), rate: rate, fallback: NewMemory(rate, nil), logger: logger}, nil
}

func (r *Redis) Allow(ctx context.Context, key string) (bool, time.Duration) {
	if time.Now().UnixNano() < r.retryAt.Load() {
		return r.fallback.Allow(ctx, key)
	}
	ctx, cancel := context.WithTimeout(ctx, redisWait)
	defer cancel()
	res, err := takeToken.Run(ctx, r.rdb, []string{redisKeyPrefix + key}, r.rate).Int64Slice()
	if err != nil || len(res) != 2 {
		if err == nil {
			err = fmt.Errorf("the script answered %v", res)
		}
		r.retryAt.Store(time.Now().Add(redisPause).UnixNano())
		if !r.down.Swap(true) {
			r.logger.Warn("rate limit: Redis failed: each replica limits on its own until it answers", "err", err)
		}
		return r.fallback.Allow(ctx, key)
	}
	if r.down.Swap(false) {
		r.logger.Info("rate limit: Redis answers again")
	}
	return res[0] == 1, time.Duration(res[1]) * time.Microsecond
}

// Close closes the connection to Redis.
func (r *Redis) Close() error { return r.rdb.Close() }

package taskstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a Store in Redis: one key per task, holding its JSON, expiring
// with the task's TTL; cancellations travel on one pub/sub channel, and
// each change, published with the write in one transaction, on another.
type Redis struct {
	rdb *redis.Client
}

var _ Store = (*Redis)(nil)

// Redis key and channel names.
const (
	redisKeyPrefix     = "modkit:task:"
	redisCancelChannel = "modkit:tasks:cancelled"
	redisChangeChannel = "modkit:tasks:changed"
	redisCreatorPrefix = "modkit:tasks:by:"
)

// NewRedis connects to the Redis at url (redis://HOST:PORT/DB). It does
// not wait for Redis: Ping does.
func NewRedis(url string) (*Redis, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("store %q: %w", url, err)
	}
	opts.DialTimeout = 2 * time.Second
	opts.ReadTimeout = 2 * time.Second
	opts.WriteTimeout = 2 * time.Second
	opts.MaxRetries = 1
	return &Redis{rdb: redis.NewClient(opts)}, nil
}

func redisKey(id string) string { return redisKeyPrefix + id }

// keep is how long a task still lives at now.
func keep(t *Task, now time.Time) time.Duration {
	if t.TTL <= 0 {
		return 0 // no expiry
	}
	d := t.CreatedAt.Add(t.TTL).Sub(now)
	if d < time.Millisecond {
		d = time.Millisecond
	}
	return d
}

func (r *Redis) Create(ctx context.Context, t *Task) error {
	data, err := json.Marshal(t)
	if err != nil {
		return err
	}
	ttl := keep(t, time.Now())
	ok, err := r.rdb.SetNX(ctx, redisKey(t.ID), data, ttl).Result()
	if err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	if !ok {
		return fmt.Errorf("task %s exists", t.ID)
	}
	// The creator's list lives as long as its youngest task: NX sets the
	// expiry of a new list, GT extends that of an older one.
	set := redisCreatorKey(t.Creator)
	_, err = r.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.ZAdd(ctx, set, redis.Z{Member: listKey(t)})
		if ttl > 0 {
			p.ExpireNX(ctx, set, ttl)
			p.ExpireGT(ctx, set, ttl)
		} else {
			p.Persist(ctx, set)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis: list task %s: %w", t.ID, err)
	}
	return nil
}

func (r *Redis) Get(ctx context.Context, id string) (*Task, error) {
	data, err := r.rdb.Get(ctx, redisKey(id)).Bytes()
	return decode(data, err)
}

func decode(data []byte, err error) (*Task, error) {
	if errors.Is(err, redis.Nil) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("redis: %w", err)
	}
	var t Task
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("redis: task: %w", err)
	}
	return &t, nil
}

// maxTries bounds the retries of an update that loses a race.
const maxTries = 50

func (r *Redis) Update(ctx context.Context, id string, change func(*Task) error) (*Task, error) {
	key := redisKey(id)
	var out *Task
	for range maxTries {
		err := r.rdb.Watch(ctx, func(tx *redis.Tx) error {
			t, err := decode(tx.Get(ctx, key).Bytes())
			if err != nil {
				return err
			}
			if t.Status.Terminal() {
				out = t
				return ErrEnded
			}
			if err := change(t); err != nil {
				return err
			}
			data, err := json.Marshal(t)
			if err != nil {
				return err
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, key, data, keep(t, time.Now()))
				p.Publish(ctx, redisChangeChannel, data)
				return nil
			})
			out = t
			return err
		}, key)
		switch {
		case errors.Is(err, redis.TxFailedErr):
			continue // another replica changed it first: read it again
		case errors.Is(err, ErrEnded):
			return out, err
		case err != nil:
			return nil, err
		}
		return out, nil
	}
	return nil, fmt.Errorf("redis: task %s: too many concurrent updates", id)
}

func (r *Redis) Delete(ctx context.Context, id string) error {
	if err := r.rdb.Del(ctx, redisKey(id)).Err(); err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	return nil
}

// Sweep has nothing to forget: a task's key expires with its TTL.
func (r *Redis) Sweep(time.Time) int { return 0 }

func (r *Redis) Notify(ctx context.Context, id string) error {
	if err := r.rdb.Publish(ctx, redisCancelChannel, id).Err(); err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	return nil
}

// Subscribe listens on the cancellation channel; go-redis reconnects and
// subscribes again after Redis restarts.
func (r *Redis) Subscribe(ctx context.Context, fn func(id string)) {
	r.listen(ctx, redisCancelChannel, fn)
}

// Watch listens on the change channel; go-redis reconnects and subscribes
// again after Redis restarts (changes made meanwhile are not heard).
func (r *Redis) Watch(ctx context.Context, fn func(*Task)) {
	r.listen(ctx, redisChangeChannel, func(payload string) {
		var t Task
		if json.Unmarshal([]byte(payload), &t) == nil {
			fn(&t)
		}
	})
}

// listen calls fn with each message's payload on channel, in order, from
// one goroutine, until ctx ends.
func (r *Redis) listen(ctx context.Context, channel string, fn func(payload string)) {
	ps := r.rdb.Subscribe(ctx, channel)
	go func() {
		defer ps.Close()
		ch := ps.Channel()
		for {
			select {
			case <-ctx.Done():
				return
			case m, ok := <-ch:
				if !ok {
					return
				}
				fn(m.Payload)
			}
		}
	}()
}

func (r *Redis) Ping(ctx context.Context) error {
	if err := r.rdb.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	return nil
}

func (r *Redis) Close() error { return r.rdb.Close() }

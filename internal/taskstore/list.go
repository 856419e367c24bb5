package taskstore

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// MaxListPage is the most tasks one List answers.
const MaxListPage = 100

// Page is one page of a creator's tasks, oldest first.
type Page struct {
	Tasks []*Task
	// Next is the cursor of the next page; "" on the last.
	Next string
}

// listKey orders a creator's tasks: by creation, then id. It is also the
// cursor a page ends with.
func listKey(t *Task) string {
	return fmt.Sprintf("%020d:%s", t.CreatedAt.UnixNano(), t.ID)
}

// checkCursor reports whether cursor is one List handed out ("" for the
// first page).
func checkCursor(cursor string) error {
	if cursor == "" {
		return nil
	}
	nanos, id, ok := strings.Cut(cursor, ":")
	if _, err := strconv.ParseUint(nanos, 10, 64); !ok || err != nil || len(nanos) != 20 || id == "" {
		return fmt.Errorf("%w: %q", ErrBadCursor, cutCursor(cursor))
	}
	return nil
}

func cutCursor(c string) string {
	if len(c) > 64 {
		return c[:64] + "…"
	}
	return c
}

// pageSize is limit within 1..MaxListPage.
func pageSize(limit int) int {
	if limit <= 0 || limit > MaxListPage {
		return MaxListPage
	}
	return limit
}

// List implements Store.
func (m *Memory) List(_ context.Context, creator, cursor string, limit int) (Page, error) {
	if err := checkCursor(cursor); err != nil {
		return Page{}, err
	}
	limit = pageSize(limit)
	now := time.Now()
	type keyed struct {
		key string
		t   *Task
	}
	var all []keyed
	m.mu.Lock()
	for _, mt := range m.tasks {
		if mt.task.Creator != creator || mt.expired(now) {
			continue
		}
		if k := listKey(mt.task); k > cursor {
			all = append(all, keyed{k, mt.task})
		}
	}
	slices.SortFunc(all, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	var p Page
	for i, k := range all {
		if i == limit {
			p.Next = all[i-1].key
			break
		}
		p.Tasks = append(p.Tasks, clone(k.t))
	}
	m.mu.Unlock()
	return p, nil
}

// redisCreatorKey is the sorted set of the list keys of creator's tasks
// (each at score 0, so ordered by the key): List reads it, and drops the
// members whose task has expired.
func redisCreatorKey(creator string) string { return redisCreatorPrefix + creator }

// List implements Store.
func (r *Redis) List(ctx context.Context, creator, cursor string, limit int) (Page, error) {
	if err := checkCursor(cursor); err != nil {
		return Page{}, err
	}
	limit = pageSize(limit)
	set := redisCreatorKey(creator)
	var p Page
	from := cursor
	for len(p.Tasks) < limit {
		min := "-"
		if from != "" {
			min = "(" + from
		}
		want := limit - len(p.Tasks)
		members, err := r.rdb.ZRangeByLex(ctx, set, &redis.ZRangeBy{Min: min, Max: "+", Count: int64(want)}).Result()
		if err != nil {
			return Page{}, fmt.Errorf("redis: %w", err)
		}
		if len(members) == 0 {
			return p, nil
		}
		keys := make([]string, len(members))
		for i, mb := range members {
			_, id, _ := strings.Cut(mb, ":")
			keys[i] = redisKey(id)
		}
		vals, err := r.rdb.MGet(ctx, keys...).Result()
		if err != nil {
			return Page{}, fmt.Errorf("redis: %w", err)
		}
		var gone []any
		for i, v := range vals {
			s, ok := v.(string)
			if !ok {
				gone = append(gone, members[i]) // expired or deleted
				continue
			}
			t, err := decode([]byte(s), nil)
			if err != nil {
				return Page{}, err
			}
			p.Tasks = append(p.Tasks, t)
		}
		if len(gone) > 0 {
			r.rdb.ZRem(ctx, set, gone...) // tidying: a failure leaves them for the next List
		}
		from = members[len(members)-1]
		if len(members) < want {
			return p, nil // the set's end
		}
	}
	p.Next = from
	return p, nil
}

package taskstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"
)

// Status is where a task stands.
type Status string

// The statuses of a task; the last three are terminal.
const (
	Working       Status = "working"
	InputRequired Status = "input_required"
	Completed     Status = "completed"
	Failed        Status = "failed"
	Cancelled     Status = "cancelled"
)

// Terminal reports whether a task with status s has ended.
func (s Status) Terminal() bool { return s == Completed || s == Failed || s == Cancelled }

// Task is one task as stored. The store reads only ID, Status, CreatedAt
// and TTL; the rest is its runner's.
type Task struct {
	ID     string `json:"id"`
	Tool   string `json:"tool"`
	Status Status `json:"status"`
	// StatusMessage follows the call's title and status.
	StatusMessage string    `json:"statusMessage,omitempty"`
	CreatedAt     time.Time `json:"createdAt"`
	UpdatedAt     time.Time `json:"updatedAt"`
	// TTL is how long the task is kept from its creation.
	TTL time.Duration `json:"ttl"`
	// Input is the call's arguments.
	Input json.RawMessage `json:"input,omitempty"`
	// Client is what the client declared it can be asked.
	Client json.RawMessage `json:"client,omitempty"`
	// Result is the tool's result of a completed task, Error the JSON-RPC
	// error of a failed one.
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
	// InputRequests are the questions of an input_required task not yet
	// answered, by key; Questions is its runner's record of what was asked
	// and answered.
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
	Questions     json.RawMessage            `json:"questions,omitempty"`
	// Owner is the replica running a working task, and LeaseUntil when its
	// claim lapses unless renewed.
	Owner      string    `json:"owner,omitempty"`
	LeaseUntil time.Time `json:"leaseUntil"`
	// Idempotent tasks are run again by another replica when theirs stops.
	Idempotent bool `json:"idempotent,omitempty"`
	// Runs counts the times the call was started.
	Runs int `json:"runs,omitempty"`
	// Creator is who created the task, when the server authorizes its
	// callers (its runner's words for the principal); empty otherwise.
	// Only its creator reads, answers or cancels the task.
	Creator string `json:"creator,omitempty"`
}

// Errors of a store.
var (
	// ErrNotFound: no task has the id, or it has expired.
	ErrNotFound = errors.New("no such task")
	// ErrEnded: the task has ended and cannot change.
	ErrEnded = errors.New("the task has ended")
	// ErrBadCursor: a List cursor that List did not hand out.
	ErrBadCursor = errors.New("invalid cursor")
)

// Store keeps tasks. Its methods are safe for concurrent use.
type Store interface {
	// Create stores a new task; its ID must be new.
	Create(ctx context.Context, t *Task) error
	// Get returns a task, or ErrNotFound.
	Get(ctx context.Context, id string) (*Task, error)
	// Update applies change to the task atomically and returns the task
	// after it. It fails with ErrNotFound, with ErrEnded when the task
	// has already ended, or with change's error (the task unchanged).
	Update(ctx context.Context, id string, change func(*Task) error) (*Task, error)
	// List returns a page of the live tasks whose Creator is creator,
	// oldest first, at most limit of them (MaxListPage when limit is out
	// of 1..MaxListPage), from cursor: "" for the first page, else the
	// previous page's Next. A bad cursor fails with ErrBadCursor.
	List(ctx context.Context, creator, cursor string, limit int) (Page, error)
	// Delete forgets a task, as if its TTL had passed; deleting a task
	// that is not there is no error.
	Delete(ctx context.Context, id string) error
	// Sweep forgets the tasks expired at now, and returns how many it
	// forgot; a store whose tasks expire by themselves (Redis) has none
	// to forget.
	Sweep(now time.Time) int
	// Notify tells every subscriber, in every process sharing the store,
	// that the task id was cancelled.
	Notify(ctx context.Context, id string) error
	// Subscribe calls fn with the id of each task cancelled through Notify,
	// until ctx is done.
	Subscribe(ctx context.Context, fn func(id string))
	// Watch calls fn with each task Update changed, as it is after the
	// change, in every process sharing the store, until ctx is done; in
	// one process, in the order of the changes. fn must not block nor
	// change the task, and must not call the store.
	Watch(ctx context.Context, fn func(t *Task))
	// Ping reports whether the store is reachable.
	Ping(ctx context.Context) error
	// Close releases the store.
	Close() error
}

// Open returns the store a --store value names: "" or "memory" for one
// process's memory, redis://HOST:PORT/DB for Redis.
func Open(spec string) (Store, error) {
	switch {
	case spec == "" || spec == "memory":
		return NewMemory(), nil
	}
	u, err := url.Parse(spec)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") {
		return nil, fmt.Errorf("store %q: want memory or redis://HOST:PORT/DB", spec)
	}
	return NewRedis(spec)
}

package taskstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/modkit/modkit/internal/taskstore"
)

// TestList: List pages through one creator's live tasks, oldest first,
// and leaves out other creators' tasks and deleted ones.
func TestList(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			base := time.Now()
			var want []string
			for i := range 7 {
				tk := newTask(fmt.Sprintf("t%d", i))
				tk.CreatedAt = base.Add(time.Duration(i) * time.Millisecond)
				tk.Creator = "alice"
				if i == 3 {
					tk.Creator = "bob"
				} else if i != 5 {
					want = append(want, tk.ID)
				}
				if err := s.Create(ctx, tk); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Delete(ctx, "t5"); err != nil {
				t.Fatal(err)
			}
			var got []string
			cursor := ""
			for pages := 0; ; pages++ {
				if pages > 10 {
					t.Fatalf("List: no last page after %d pages (got %v)", pages, got)
				}
				p, err := s.List(ctx, "alice", cursor, 2)
				if err != nil {
					t.Fatalf("List(%q): %v", cursor, err)
				}
				if len(p.Tasks) > 2 {
					t.Fatalf("List(%q, 2): got %d tasks", cursor, len(p.Tasks))
				}
				for _, tk := range p.Tasks {
					got = append(got, tk.ID)
				}
				if p.Next == "" {
					break
				}
				cursor = p.Next
			}
			if !slices.Equal(got, want) {
				t.Fatalf("alice's tasks: got %v, want %v", got, want)
			}
			p, err := s.List(ctx, "bob", "", 0)
			if err != nil || len(p.Tasks) != 1 || p.Tasks[0].ID != "t3" || p.Next != "" {
				t.Fatalf("bob's tasks: got %+v, %v; want [t3] and no next", p, err)
			}
			if _, err := s.List(ctx, "alice", "not a cursor", 2); !errors.Is(err, taskstore.ErrBadCursor) {
				t.Fatalf("List with a bad cursor: got %v, want ErrBadCursor", err)
			}
		})
	}
}

package modproc

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestStderrTail(t *testing.T) {
	t.Parallel()
	many := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString("line " + strconv.Itoa(i+1) + "\n")
		}
		return b.String()
	}
	tests := []struct {
		name      string
		writes    []string
		wantPanic string
		wantLast  []string
	}{
		{"few lines", []string{"one\n", "two\n"}, "", []string{"one", "two"}},
		{"split writes and a partial line", []string{"on", "e\n\n  \ntw", "o"}, "", []string{"one", "two"}},
		{"the last lines", []string{many(20)}, "", []string{"line 13", "line 14", "line 15", "line 16", "line 17", "line 18", "line 19", "line 20"}},
		{"a panic and what follows it", []string{"noise\npanic: boom\n\ngoroutine 1 [running]:\n", many(20)},
			"panic: boom", []string{"panic: boom", "goroutine 1 [running]:", "line 1", "line 2", "line 3", "line 4", "line 5", "line 6"}},
		{"a fatal error", []string{"fatal error: all goroutines are asleep - deadlock!\n"},
			"fatal error: all goroutines are asleep - deadlock!", []string{"fatal error: all goroutines are asleep - deadlock!"}},
		{"log records left out", []string{`{"@level":"debug","@message":"configuring server automatic mTLS"}` + "\nprinted\n"}, "", []string{"printed"}},
		{"a long line", []string{strings.Repeat("x", 1000) + "\n"}, "", []string{strings.Repeat("x", tailLineMax) + "…"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tail Tail
			for _, w := range tt.writes {
				tail.Write([]byte(w))
			}
			if got := tail.PanicLine(); got != tt.wantPanic {
				t.Errorf("got panic line %q, want %q", got, tt.wantPanic)
			}
			if got := tail.Last(); !slices.Equal(got, tt.wantLast) {
				t.Errorf("got last lines %q, want %q", got, tt.wantLast)
			}
		})
	}
}

func TestSocketDirOwner(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		pid  int
		ok   bool
	}{
		{"modkit-crashy-1234-987654", 1234, true},
		{"modkit-my-mod.v2-42-1", 42, true},
		{"modkit-crashy-987654", 0, false}, // no pid
		{"modkit-host-test-123", 0, false},
		{"modkit-crashy-0-1", 0, false},
		{"plugin123", 0, false},
	}
	for _, tt := range tests {
		pid, ok := socketDirOwner(tt.name)
		if pid != tt.pid || ok != tt.ok {
			t.Errorf("socketDirOwner(%q) = %d, %v; want %d, %v", tt.name, pid, ok, tt.pid, tt.ok)
		}
	}
}

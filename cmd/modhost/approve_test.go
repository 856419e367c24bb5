package main

import (
	"context"
	"io"
	"strings"
	"testing"
)

func TestAsk(t *testing.T) {
	t.Parallel()
	const question = "t_x needs your approval: Overwrite a.md"
	const prompt = question + "\nRun it? [y/N] "
	tests := []struct {
		answer string
		want   bool
		// echo is what follows the prompt: a newline when the input ends
		// without one, so the next message starts on a line of its own.
		echo string
	}{
		{"y\n", true, ""},
		{"YES\n", true, ""},
		{" yes ", true, "\n"},
		{"\n", false, ""},
		{"no\n", false, ""},
		{"", false, "\n"},
		{"yep\n", false, ""},
	}
	for _, tt := range tests {
		var w strings.Builder
		got, err := ask(context.Background(), strings.NewReader(tt.answer), &w, question)
		if err != nil || got != tt.want {
			t.Errorf("answer %q: got %v, %v, want %v", tt.answer, got, err, tt.want)
		}
		if want := prompt + tt.echo; w.String() != want {
			t.Errorf("got prompt %q, want %q", w.String(), want)
		}
	}
}

func TestAskCancelled(t *testing.T) {
	t.Parallel()
	r, pw := io.Pipe() // nobody answers
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := ask(ctx, r, io.Discard, "t_x needs your approval: why"); got || err != context.Canceled {
		t.Errorf("got %v, %v, want false, context.Canceled", got, err)
	}
}

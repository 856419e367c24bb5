package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/modkit/modkit/host"
)

// approver is call's host.Approver: --yes approves every call; otherwise
// it asks on the terminal, and without one it denies, saying how to
// approve.
func (e *env) approver(yes bool) host.Approver {
	return func(ctx context.Context, req *host.ApprovalRequest) (bool, error) {
		if yes {
			fmt.Fprintf(e.stderr, "modhost: %s\nmodhost: approved by --yes\n", req.Question())
			return true, nil
		}
		if !isTerminal(e.stdin) || !isTerminal(e.stderr) {
			fmt.Fprintf(e.stderr, "modhost: %s\nmodhost: no terminal to ask on, so the call is denied; pass --yes to approve it\n", req.Question())
			return false, nil
		}
		return ask(ctx, e.stdin, e.stderr, req.Question())
	}
}

// ask puts question, a call's approval question, to the person on w and
// reads their answer, a line, from r: "y" or "yes" approves.
func ask(ctx context.Context, r io.Reader, w io.Writer, question string) (bool, error) {
	return askYes(ctx, r, w, question+"\nRun it?")
}

// askYes writes prompt and " [y/N] " to w and reads the person's answer, a
// line, from r: "y" or "yes" is yes.
func askYes(ctx context.Context, r io.Reader, w io.Writer, prompt string) (bool, error) {
	fmt.Fprintf(w, "%s [y/N] ", prompt)
	answer := make(chan string, 1)
	go func() {
		// Left reading when the call is cancelled: modhost exits then.
		line, _ := bufio.NewReader(r).ReadString('\n')
		answer <- line
	}()
	select {
	case line := <-answer:
		if !strings.HasSuffix(line, "\n") {
			fmt.Fprintln(w) // end of input (Ctrl-D): end the prompt's line
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, nil
		}
		return false, nil
	case <-ctx.Done():
		fmt.Fprintln(w)
		return false, ctx.Err()
	}
}

// isTerminal reports whether f is a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	fi, err := file.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

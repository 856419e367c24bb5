package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: its controller and the terminal a
// person would type on; the test is skipped where the machine has none.
func openPTY(t *testing.T) (controller, term *os.File) {
	t.Helper()
	c, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal on this machine: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if err := unix.IoctlSetPointerInt(int(c.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetUint32(int(c.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("the pseudo-terminal's number: %v", err)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { term.Close() })
	return c, term
}

func TestAllowOnTerminal(t *testing.T) {
	tests := []struct {
		name, typed string
		wantWhy     string
	}{
		{"yes", "y\n", ""},
		{"YES", "YES\n", ""},
		{"no", "n\n", "the answer was no"},
		{"empty", "\n", "the answer was no"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, term := openPTY(t)
			if _, err := c.Write([]byte(tt.typed)); err != nil {
				t.Fatal(err)
			}
			e := &env{stdin: term, stdout: term, stderr: term}
			why, err := e.allow(context.Background(), "example.com/fetch v1.1.0", false)
			if err != nil || why != tt.wantWhy {
				t.Fatalf("typed %q: got %q, %v; want %q", tt.typed, why, err, tt.wantWhy)
			}
			// The question went to the terminal. With the terminal closed,
			// the controller reads what it shows, then fails.
			term.Close()
			var shown []byte
			buf := make([]byte, 4096)
			for {
				n, err := c.Read(buf)
				shown = append(shown, buf[:n]...)
				if err != nil {
					break
				}
			}
			const question = "Allow example.com/fetch v1.1.0 to do more, as above? [y/N] "
			if !strings.Contains(string(shown), question) {
				t.Errorf("the terminal shows %q, want the question %q", shown, question)
			}
		})
	}
}

func TestAllowWithoutTerminal(t *testing.T) {
	var stderr bytes.Buffer
	e := &env{stdin: strings.NewReader("y\n"), stdout: &stderr, stderr: &stderr}
	why, err := e.allow(context.Background(), "example.com/fetch v1.1.0", false)
	if err != nil || why != "there is no terminal to ask on" {
		t.Errorf("no terminal: got %q, %v; want %q: a yes piped in is no yes", why, err, "there is no terminal to ask on")
	}
	why, err = e.allow(context.Background(), "example.com/fetch v1.1.0", true)
	if err != nil || why != "" {
		t.Errorf("--yes: got %q, %v; want a yes", why, err)
	}
	if got, want := stderr.String(), "modhost: example.com/fetch v1.1.0 allowed by --yes\n"; got != want {
		t.Errorf("--yes: stderr got %q, want %q", got, want)
	}
}

//go:build unix

package research

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modkit/modkit/sdk/modtest"
)

// TestSearchConfinedWhileFilesChange runs searches while another goroutine
// keeps swapping listed files and directories for symbolic links to outside
// the workspace and for FIFOs. No byte from outside may reach a result, and
// no search may hang.
func TestSearchConfinedWhileFilesChange(t *testing.T) {
	const secret = "SECRET-FROM-OUTSIDE"
	outside := workspace(t, map[string]string{"secret.txt": secret + " needle\n", "dir/victim.txt": secret + " needle\n"})
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("dir/f%02d.txt", i)] = "needle inside\n"
		files[fmt.Sprintf("victim%02d.txt", i)] = "needle inside\n"
	}
	ws := workspace(t, files)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	errs := make(chan error, 1)
	go func() {
		defer wg.Done()
		if err := swapper(ctx, ws, outside); err != nil {
			errs <- err
		}
	}()
	defer func() {
		stop()
		wg.Wait()
		select {
		case err := <-errs:
			t.Errorf("swapping files: %v", err)
		default:
		}
	}()

	// Each search runs on its own goroutine so that a hung one is seen.
	for i := range 40 {
		done := make(chan *modtest.Outcome, 1)
		go func() {
			out, err := modtest.Call(generated(), "research_search_workspace", `{"query":"needle","limit":200}`, &modtest.Options{Workspace: ws})
			if err != nil {
				out = &modtest.Outcome{Text: err.Error()}
			}
			done <- out
		}()
		select {
		case out := <-done:
			if out.Status != modtest.StatusCompleted {
				t.Fatalf("search %d: got %s %q, want completed", i, out.Status, out.Text)
			}
			if strings.Contains(out.Text, secret) || strings.Contains(string(out.Result), secret) {
				t.Fatalf("search %d read a file outside the workspace:\n%s", i, out.Text)
			}
		case <-time.After(time.Minute):
			t.Fatalf("search %d hung", i)
		}
	}
}

// swapper swaps files and directories of ws until ctx ends: a file for a
// link to outside, a file for a FIFO, a directory for a link to a
// directory outside, each put back after.
func swapper(ctx context.Context, ws, outside string) error {
	for i := 0; ctx.Err() == nil; i++ {
		victim := filepath.Join(ws, fmt.Sprintf("victim%02d.txt", i%20))
		tmp := victim + ".tmp"
		var err error
		switch i % 3 {
		case 0:
			err = os.Symlink(filepath.Join(outside, "secret.txt"), tmp)
		case 1:
			err = syscall.Mkfifo(tmp, 0o644)
		case 2:
			dir := filepath.Join(ws, "dir")
			if err := os.Rename(dir, dir+".real"); err != nil {
				return err
			}
			if err := os.Symlink(filepath.Join(outside, "dir"), dir); err != nil {
				return err
			}
			time.Sleep(time.Millisecond)
			if err := os.Remove(dir); err != nil {
				return err
			}
			if err := os.Rename(dir+".real", dir); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		if err := os.Rename(tmp, victim); err != nil {
			return err
		}
		time.Sleep(time.Millisecond)
		if err := os.WriteFile(tmp, []byte("needle inside\n"), 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, victim); err != nil {
			return err
		}
	}
	return nil
}

// TestSearchSkipsSpecialFiles checks that a FIFO in the workspace, listed
// or named as the path, is skipped without being read, and that a link to
// a directory is skipped silently.
func TestSearchSkipsSpecialFiles(t *testing.T) {
	ws := workspace(t, map[string]string{"a.txt": "needle\n", "sub/b.txt": "needle\n"})
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustLink(t, "pipe", filepath.Join(ws, "pipe-link"))
	mustLink(t, "sub", filepath.Join(ws, "sub-link"))
	out := search(t, ws, `{"query":"needle"}`)
	mustComplete(t, out)
	if want := "2 matches for \"needle\" in 2 files:\na.txt:1 needle\nsub/b.txt:1 needle"; out.Text != want {
		t.Errorf("got %q, want %q", out.Text, want)
	}
	if logs := strings.TrimSpace(logText(out)); logs != "Skipped pipe-link: it is not a regular file." {
		t.Errorf("got log:\n%s\nwant only the link to a FIFO skipped", logs)
	}
	out = search(t, ws, `{"query":"needle","path":"pipe"}`)
	mustComplete(t, out)
	if want := `No matches for "needle" in 0 files.`; out.Text != want {
		t.Errorf("path naming a FIFO: got %q, want %q", out.Text, want)
	}
}

package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestDev starts modhost dev, opens the URL it prints, and stops it as an
// interrupt would.
func TestDev(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	exit := make(chan int, 1)
	go func() {
		defer pw.Close()
		exit <- run(ctx, []string{"--mods", crashyDir(t), "dev", "--addr", "127.0.0.1:0"}, strings.NewReader(""), io.Discard, pw)
	}()
	url := ""
	sc := bufio.NewScanner(pr)
	for url == "" && sc.Scan() {
		if _, u, ok := strings.Cut(sc.Text(), "modhost: inspector at "); ok {
			url = u
		}
	}
	go io.Copy(io.Discard, pr)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.Contains(url, "/?token=") {
		t.Fatalf("printed URL: got %q, want http://127.0.0.1:PORT/?token=…", url)
	}
	get := func(u string) (int, string) {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if code, body := get(url); code != http.StatusOK || !strings.Contains(body, "<title>modhost dev</title>") {
		t.Errorf("the page: got %d %.200s", code, body)
	}
	base, tok, _ := strings.Cut(url, "/?token=")
	if code, body := get(base + "/api/state?token=" + tok); code != http.StatusOK || !strings.Contains(body, `"id":"crashy"`) {
		t.Errorf("state: got %d %.200s, want crashy listed", code, body)
	}
	if code, _ := get(base + "/"); code != http.StatusForbidden {
		t.Errorf("without the token: got %d, want 403", code)
	}
	cancel()
	if code := <-exit; code != exitOK {
		t.Errorf("exit: got %d, want %d", code, exitOK)
	}
}

func TestDevUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"dev", "extra"}, {"dev", "--bogus"}, {"--agent", "nobody", "dev"}} {
		var stderr strings.Builder
		if got := run(context.Background(), append([]string{"--mods", crashyDir(t)}, args...), strings.NewReader(""), io.Discard, &stderr); got != exitUsage {
			t.Errorf("modhost %s: got exit %d, want %d; stderr: %s", strings.Join(args, " "), got, exitUsage, stderr.String())
		}
	}
}

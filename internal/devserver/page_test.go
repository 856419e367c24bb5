package devserver_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// get fetches path with the token in its header and the given
// Accept-Encoding ("identity" for none).
func (f *fixture) get(path, encoding string) (*http.Response, []byte) {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.ts.URL+path, nil)
	req.Header.Set("X-Modhost-Token", token)
	req.Header.Set("Accept-Encoding", encoding)
	resp, err := http.DefaultTransport.RoundTrip(req) // no transparent gunzip
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return resp, body
}

// TestPageCarriesState: the page holds the state the API returns, so it
// shows the mods with no second round trip, and names its assets by
// version.
func TestPageCarriesState(t *testing.T) {
	f := start(t, crashyDir, quickDir)
	f.outcome(f.call("quick_echo", `{"text":"x"}`, ""))
	resp, page := f.get("/", "identity")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /: got %d", resp.StatusCode)
	}
	m := regexp.MustCompile(`<script type="application/json" id="state">(.*?)</script>`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("the page has no state script:\n%s", page)
	}
	var inPage, fromAPI map[string]any
	if err := json.Unmarshal(m[1], &inPage); err != nil {
		t.Fatalf("state in the page: %v", err)
	}
	f.decode("GET", "/api/state", nil, http.StatusOK, &fromAPI)
	a, _ := json.Marshal(inPage)
	b, _ := json.Marshal(fromAPI)
	if !bytes.Equal(a, b) {
		t.Errorf("state in the page differs from /api/state:\npage %s\napi  %s", a, b)
	}
	if v, _ := inPage["version"].(float64); v != 2 {
		t.Errorf("version: got %v, want 2 (the call's start and end)", inPage["version"])
	}
	for _, name := range []string{"app.js", "app.css"} {
		if !regexp.MustCompile(`"/assets/` + regexp.QuoteMeta(name) + `\?v=[0-9a-f]{16}&amp;token=` + token + `"`).Match(page) {
			t.Errorf("the page names no versioned %s:\n%s", name, page)
		}
	}
}

// TestStateCannotEndScript: text from a mod that looks like markup stays
// inside the page's state.
func TestStateCannotEndScript(t *testing.T) {
	f := start(t, quickDir)
	f.outcome(f.call("quick_echo", `{"text":"</script><script>alert(1)</script>"}`, ""))
	_, page := f.get("/", "identity")
	if bytes.Contains(page, []byte("<script>alert")) {
		t.Errorf("input from a call ended the state's script element:\n%s", page)
	}
}

func TestAssets(t *testing.T) {
	f := start(t, quickDir)
	_, page := f.get("/", "identity")
	url := regexp.MustCompile(`/assets/app\.js\?v=([0-9a-f]+)&amp;token=`).FindSubmatch(page)
	if url == nil {
		t.Fatalf("no app.js in the page")
	}
	version := string(url[1])
	resp, raw := f.get("/assets/app.js?v="+version, "identity")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "" || !bytes.Contains(raw, []byte("use strict")) {
		t.Fatalf("app.js: got %d, encoding %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("app.js Content-Type: got %q", ct)
	}
	if cc := resp.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("current version's Cache-Control: got %q, want immutable", cc)
	}
	for _, enc := range []string{"gzip", "br, gzip;q=0.8", "deflate, gzip"} {
		resp, gz := f.get("/assets/app.js?v="+version, enc)
		if resp.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("Accept-Encoding %q: got encoding %q, want gzip", enc, resp.Header.Get("Content-Encoding"))
			continue
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := io.ReadAll(zr); !bytes.Equal(got, raw) {
			t.Errorf("Accept-Encoding %q: the gzip does not hold the file", enc)
		}
	}
	if resp, _ := f.get("/assets/app.js?v="+version, "gzip;q=0"); resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0: got encoding %q, want none", resp.Header.Get("Content-Encoding"))
	}
	if resp, _ := f.get("/assets/app.js?v=old", "identity"); resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("another version's Cache-Control: got %q, want no-cache", resp.Header.Get("Cache-Control"))
	}
	for _, p := range []string{"/assets/index.html", "/assets/nope.js"} {
		if resp, _ := f.get(p, "identity"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: got %d, want 404", p, resp.StatusCode)
		}
	}
}

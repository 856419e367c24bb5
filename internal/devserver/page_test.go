package devserver_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
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

// TestPageCarriesState: the page holds its script, its style and the
// state the API returns, so that it shows the mods with no second round
// trip.
func TestPageCarriesState(t *testing.T) {
	t.Parallel()
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
	for _, want := range []string{"<style>* { box-sizing", "<script>// The modhost dev inspector"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page has no %q", want)
		}
	}
	if refs := regexp.MustCompile(`(?:src|href)="[^"d][^"]*"`).FindAll(page, -1); len(refs) > 0 {
		t.Errorf("the page fetches more: %q", refs)
	}
}

// TestStateCannotEndScript: text from a mod that looks like markup stays
// inside the page's state.
func TestStateCannotEndScript(t *testing.T) {
	t.Parallel()
	f := start(t, quickDir)
	f.outcome(f.call("quick_echo", `{"text":"</script><script>alert(1)</script>"}`, ""))
	_, page := f.get("/", "identity")
	if bytes.Contains(page, []byte("<script>alert")) {
		t.Errorf("input from a call ended the state's script element:\n%s", page)
	}
}

package devserver

import (
	"bytes"
	"embed"
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"
)

//go:embed assets
var assetFS embed.FS

// page is the inspector's one document. It carries its style, its script
// and the state, so that a first visit shows the mods after one round
// trip, with nothing to fetch before it can.
var page = template.Must(template.ParseFS(assetFS, "assets/index.html"))

// The page's style and script, read once.
var (
	pageCSS = template.CSS(mustRead("assets/app.css"))
	pageJS  = template.JS(mustRead("assets/app.js"))
)

func mustRead(name string) []byte {
	data, err := assetFS.ReadFile(name)
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	return data
}

// index serves the page, with the state as /api/state returns it.
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	// json.Marshal escapes <, > and &, so no text of a mod's can end the
	// state's script element.
	st, err := json.Marshal(s.snapshot())
	if err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	var buf bytes.Buffer
	if err := page.Execute(&buf, struct {
		Token string
		CSS   template.CSS
		JS    template.JS
		State template.JS
	}{s.opts.Token, pageCSS, pageJS, template.JS(st)}); err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	w.Header().Set("Content-Security-Policy", csp)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.Write(buf.Bytes())
}

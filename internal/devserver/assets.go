package devserver

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

//go:embed assets
var assetFS embed.FS

// asset is an embedded file ready to serve: prepared once, at start, so a
// request does no work but a copy.
type asset struct {
	typ     string // Content-Type
	raw, gz []byte // the file and its gzip
	version string // digest of raw, naming this version in URLs
}

// assets are the page's scripts and styles by name ("app.js").
var assets = prepareAssets()

func prepareAssets() map[string]*asset {
	out := map[string]*asset{}
	entries, err := fs.ReadDir(assetFS, "assets")
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	for _, e := range entries {
		name := e.Name()
		if name == "index.html" {
			continue // a template, rendered per request
		}
		raw, err := assetFS.ReadFile("assets/" + name)
		if err != nil {
			panic(err)
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(raw)
		zw.Close()
		sum := sha256.Sum256(raw)
		out[name] = &asset{typ: mime.TypeByExtension(path.Ext(name)), raw: raw, gz: gz.Bytes(),
			version: hex.EncodeToString(sum[:8])}
	}
	return out
}

// assetURL is the URL of the named asset's current version.
func assetURL(name, token string) string {
	return "/assets/" + name + "?v=" + assets[name].version + "&token=" + token
}

// serveAsset serves an embedded asset, gzipped when the client accepts
// it. A URL naming the current version may be cached for good: a new
// version has a new URL. Any other is revalidated.
func serveAsset(w http.ResponseWriter, r *http.Request) {
	a := assets[r.PathValue("name")]
	if a == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.typ)
	h.Set("Vary", "Accept-Encoding")
	if r.URL.Query().Get("v") == a.version {
		h.Set("Cache-Control", "private, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	body := a.raw
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}

// acceptsGzip reports whether an Accept-Encoding header admits gzip.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		if strings.TrimSpace(coding) != "gzip" {
			continue
		}
		q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
		if !ok {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}

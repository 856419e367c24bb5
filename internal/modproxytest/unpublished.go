package modproxytest

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
)

// Unpublished starts on loopback a module proxy where modkit is not
// published: it answers every request for modkit, or a path below it,
// with 403 Forbidden, as a proxy refusing a module does (the go command
// then looks no further), and serves every other module from the module
// cache the tests run with. It returns the proxy's URL, for GOPROXY, and
// stops at cleanup.
func Unpublished(t T) string {
	t.Helper()
	modCache, err := goEnv("GOMODCACHE")
	if err != nil {
		t.Fatal(err)
	}
	files := http.FileServer(http.Dir(filepath.Join(modCache, "cache", "download")))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/"+ModkitPath+"/") {
			http.Error(w, ModkitPath+" is not published here", http.StatusForbidden)
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
